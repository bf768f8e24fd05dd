"""Build ``v1/objects.tsv`` and ``v1/categories.tsv``: the object knowledge base, authored here.

This file is the source of the table: envsuite's authors wrote every row (no outside data),
and it is licensed like the repository. Run ``python datasets/text/objects/build_objects.py``
to write the two TSV files; ``README.md`` says what each attribute means.

Each category has default attributes; an item adds attributes (``"metal"``) or removes a
default (``"-legs"``). Sizes are classes on a scale of reference objects:
1 smaller than a coin, 2 between a coin and an apple, 3 between an apple and a bread box,
4 between a bread box and a person, 5 between a person and a car, 6 between a car and a
house, 7 bigger than a house; a reference object that is also an item (apple, car) sits on
its own mark (2.5, 5.5).
"""

from __future__ import annotations

from pathlib import Path

ATTRIBUTES = (
    "alive",
    "man_made",
    "edible",
    "indoors",
    "wheels",
    "flies",
    "water",
    "legs",
    "electric",
    "metal",
    "wooden",
    "fur",
    "pet",
    "sweet",
    "sharp",
    "farm",
    "carnivore",
)

#: category -> (parent or "", default attributes)
CATEGORIES: dict[str, tuple[str, str]] = {
    "animal": ("", "alive"),
    "mammal": ("animal", "alive legs fur"),
    "bird": ("animal", "alive legs flies"),
    "fish": ("animal", "alive water"),
    "reptile": ("animal", "alive legs"),
    "amphibian": ("animal", "alive legs water"),
    "insect": ("animal", "alive legs"),
    "invertebrate": ("animal", "alive"),
    "plant": ("", "alive"),
    "tree": ("plant", "alive wooden"),
    "flower": ("plant", "alive"),
    "food": ("", "edible indoors"),
    "fruit": ("food", "edible indoors sweet"),
    "vegetable": ("food", "edible indoors"),
    "dish": ("food", "edible indoors man_made"),
    "baked good": ("food", "edible indoors man_made"),
    "dairy product": ("food", "edible indoors man_made"),
    "drink": ("food", "edible indoors"),
    "snack": ("food", "edible indoors man_made"),
    "vehicle": ("", "man_made metal wheels"),
    "tool": ("", "man_made"),
    "furniture": ("", "man_made indoors"),
    "clothing": ("", "man_made indoors"),
    "musical instrument": ("", "man_made indoors"),
    "appliance": ("", "man_made indoors electric"),
    "electronic device": ("", "man_made indoors electric"),
    "toy": ("", "man_made indoors"),
    "kitchenware": ("", "man_made indoors"),
    "sports equipment": ("", "man_made"),
    "building": ("", "man_made"),
    "container": ("", "man_made indoors"),
    "stationery": ("", "man_made indoors"),
    "jewellery": ("", "man_made indoors metal"),
}

#: category -> "name size extra-attributes; ..." (names may hold spaces: size splits them)
ITEMS: dict[str, str] = {
    "mammal": """
        dog 4 pet indoors; cat 4 pet indoors; horse 5; cow 5; pig 5; sheep 5; goat 5;
        elephant 6; giraffe 6; lion 5; tiger 5; bear 5; wolf 4; fox 4; rabbit 3 pet;
        mouse 2 indoors; rat 3; squirrel 3; hamster 2 pet indoors; monkey 4;
        gorilla 5; kangaroo 5; koala 4; panda 5; zebra 5; camel 6; deer 5;
        hippopotamus 6 water; rhinoceros 6; bat 2 flies -legs; whale 7 water -legs -fur;
        dolphin 5 water -legs -fur; seal 5 water -legs; otter 4 water; beaver 4 water;
        hedgehog 3; skunk 3; raccoon 4; donkey 5; moose 6; cheetah 5; leopard 5;
        sloth 4; mole 2; guinea pig 3 pet indoors""",
    "bird": """
        eagle 4; owl 4; parrot 3 pet indoors; penguin 4 -flies water; ostrich 5 -flies;
        chicken 4 -flies; duck 4 water; swan 4 water; pigeon 3; crow 3; sparrow 2;
        hummingbird 1; flamingo 4 water; peacock 4; turkey 4 -flies; seagull 3 water;
        woodpecker 3; canary 2 pet indoors; goose 4 water; robin 2""",
    "fish": """
        shark 6; goldfish 2 pet indoors; salmon 4 edible; tuna 5 edible; clownfish 2;
        eel 4; swordfish 5; trout 3 edible; catfish 4; piranha 3; seahorse 2;
        stingray 5""",
    "reptile": """
        snake 4 -legs; crocodile 5 water; alligator 5 water; turtle 4 water;
        tortoise 4 pet; lizard 3; chameleon 3; iguana 4 pet; gecko 2 pet indoors;
        komodo dragon 5""",
    "amphibian": "frog 2; toad 2; salamander 2; newt 2",
    "insect": """
        ant 1; bee 1 flies; butterfly 2 flies; mosquito 1 flies; fly 1 flies indoors;
        ladybug 1 flies; grasshopper 1; cockroach 1 indoors; dragonfly 2 flies;
        beetle 1 flies; moth 1 flies; wasp 1 flies""",
    "invertebrate": """
        spider 1 legs indoors; octopus 4 water legs; jellyfish 3 water; crab 3 water legs
        edible; lobster 3 water legs edible; snail 1; worm 1; starfish 2 water; squid 4
        water; scorpion 2 legs; shrimp 1 water edible""",
    "tree": """
        oak 7; pine 7; palm tree 6; maple 7; birch 6; willow 6; apple tree 6; bamboo 6
        -wooden; christmas tree 5 indoors; redwood 7; baobab 7""",
    "flower": """
        rose 2 sharp; tulip 2; sunflower 4; daisy 2; lily 2; orchid 3 indoors; dandelion 2;
        lotus 2 water; lavender 2; poppy 2""",
    "plant": """
        cactus 4 sharp; grass 1; fern 4; moss 1; ivy 4; seaweed 4 water edible;
        venus flytrap 2 indoors; mushroom 2 edible""",
    "fruit": """
        apple 2.5; banana 3; orange 3; grape 1; strawberry 2; watermelon 4; pineapple 4
        sharp; mango 3; peach 3; pear 3; cherry 1; lemon 3 -sweet; lime 2 -sweet;
        coconut 3; kiwi 2; blueberry 1; raspberry 1; plum 2; apricot 2; avocado 3 -sweet;
        pomegranate 3; fig 2""",
    "vegetable": """
        carrot 3; potato 3; tomato 3; onion 3; cabbage 4; lettuce 4; broccoli 3;
        cucumber 3; pea 1; corn 3 sweet; pumpkin 4; garlic 2; pepper 3; eggplant 3;
        spinach 2; celery 3; radish 2; bean 1; cauliflower 4; zucchini 3""",
    "dish": """
        pizza 4; hamburger 3; sandwich 3; soup 3; salad 3; pasta 3; sushi 2; taco 3;
        hot dog 3; omelette 3; french fries 3; rice 3; steak 3; curry 3""",
    "baked good": """
        bread 4; cake 4 sweet; cookie 2 sweet; croissant 3; muffin 3 sweet; pie 4 sweet;
        doughnut 3 sweet; pancake 3 sweet; bagel 3; pretzel 3""",
    "dairy product": "cheese 3; butter 3; yogurt 3; ice cream 3 sweet; milk 3 -man_made",
    "drink": """
        coffee 3; tea 3; orange juice 3 sweet; lemonade 3 sweet man_made; water 3;
        hot chocolate 3 sweet man_made; soda 3 sweet man_made""",
    "snack": """
        chocolate 2 sweet; candy 1 sweet; popcorn 1; potato chips 1; honey 3 sweet
        -man_made; peanut 1 -man_made; lollipop 2 sweet; chewing gum 1 sweet; egg 2
        -man_made""",
    "vehicle": """
        car 5.5; bicycle 5 -metal; motorcycle 5; bus 6; truck 6; train 7; airplane 7
        flies; helicopter 6 flies; boat 6 water -wheels -metal; ship 7 water -wheels;
        submarine 7 water -wheels; tractor 6; scooter 4; skateboard 4 -metal; ambulance 6;
        fire truck 6; taxi 5.5; tram 7 electric; rocket 7 flies -wheels;
        hot air balloon 6 flies -wheels -metal; canoe 5 water -wheels -metal wooden;
        wheelbarrow 4; sailboat 6 water -wheels -metal; van 6; tank 6; sled 4 -wheels
        -metal wooden; golf cart 5 electric; jet ski 5 water -wheels""",
    "tool": """
        hammer 3 metal indoors; screwdriver 3 metal indoors; wrench 3 metal indoors;
        saw 4 metal sharp; axe 4 metal sharp wooden; drill 3 electric metal; shovel 4
        metal; rake 4; ladder 5 metal; pliers 3 metal indoors; tape measure 2 metal
        indoors; knife 3 metal sharp indoors; scissors 3 metal sharp indoors; needle 1
        metal sharp indoors; broom 4 indoors wooden; flashlight 3 electric indoors;
        chainsaw 4 electric metal sharp; paintbrush 3 indoors wooden; magnifying glass 3
        indoors; lawn mower 5 wheels metal sharp; crowbar 4 metal; sewing machine 4
        electric indoors metal; anvil 4 metal""",
    "furniture": """
        chair 4 legs; table 5 legs wooden; bed 5 legs; sofa 5 legs; desk 5 legs wooden;
        bookshelf 5 wooden; wardrobe 5 wooden; stool 4 legs wooden; bench 5 legs wooden;
        lamp 4 electric; mirror 4; dresser 5 wooden; cradle 4 wooden legs; rocking chair
        4 wooden; armchair 5 legs; bunk bed 5 legs wooden metal; hammock 5 -indoors;
        office chair 4 wheels; coffee table 4 legs wooden; carpet 5""",
    "clothing": """
        shirt 4; trousers 4; dress 4; skirt 4; jacket 4; coat 4; sweater 4; sock 3;
        shoe 3; boot 3; hat 3; scarf 4; glove 3; tie 4; belt 4; pyjamas 4; raincoat 4;
        swimsuit 3 water; sandal 3; cap 3; helmet 3 metal; apron 4; uniform 4; wedding
        dress 5""",
    "musical instrument": """
        piano 5 legs wooden; guitar 4 wooden; violin 4 wooden; drum 4; flute 3 metal;
        trumpet 4 metal; saxophone 4 metal; harp 5 wooden; cello 5 wooden; harmonica 2
        metal; accordion 4; xylophone 4 wooden; tuba 4 metal; tambourine 3; electric
        guitar 4 electric wooden; triangle 2 metal; banjo 4 wooden; bagpipes 4;
        clarinet 3 wooden; organ 6 electric""",
    "appliance": """
        refrigerator 5 metal; washing machine 5 metal; microwave 4 metal; oven 5 metal;
        toaster 3 metal; dishwasher 5 metal; vacuum cleaner 4 wheels; kettle 3 metal;
        blender 3; hair dryer 3; iron 3 metal; fan 4; air conditioner 4 metal; freezer 5
        metal; coffee maker 3; electric toothbrush 3; heater 4 metal;
        stove 5 metal; clothes dryer 5 metal""",
    "electronic device": """
        television 4; computer 4; laptop 4; smartphone 2; tablet 3; camera 3; radio 3;
        headphones 3; keyboard 4; printer 4; remote control 3; calculator 3; video game
        console 3; watch 2 metal; speaker 3; microphone 3 metal; router 3; e-reader 3;
        projector 3; smartwatch 2; robot 4 metal; drone 3 flies -indoors""",
    "toy": """
        teddy bear 3 fur; doll 3; ball 3; kite 4 flies -indoors; yo-yo 2; puzzle 3; lego
        brick 1; toy car 2 wheels metal; rocking horse 4 legs wooden; jump rope 4; marble
        1; spinning top 2 wooden; balloon 3 flies; rubber duck 2 water; action figure 2;
        board game 3; frisbee 3 flies -indoors; slinky 2 metal; dollhouse 4 wooden;
        water gun 3 water""",
    "kitchenware": """
        fork 3 metal sharp; spoon 3 metal; plate 3; bowl 3; cup 2.5; mug 3; frying pan 4
        metal; saucepan 4 metal; teapot 3; cutting board 4 wooden; rolling pin 4 wooden;
        whisk 3 metal; ladle 3 metal; chopsticks 3 wooden; spatula 3; grater 3 metal
        sharp; wine glass 3; corkscrew 2 metal sharp; colander 4 metal""",
    "sports equipment": """
        football 3; basketball 4; tennis racket 4; baseball bat 4 wooden; golf club 4
        metal; hockey stick 4 wooden; skis 5; surfboard 5 water; bowling ball 3 indoors;
        boxing glove 3; dumbbell 3 metal indoors; treadmill 5 electric indoors; trampoline
        6 metal; baseball 2; ping pong paddle 3 wooden indoors; ice skates 3 metal sharp;
        snowboard 5; dartboard 4 indoors; javelin 5 metal sharp; soccer goal 6 metal""",
    "building": """
        castle 7; skyscraper 7 metal electric; church 7; lighthouse 7; barn 7 wooden;
        tent 5; igloo 6; windmill 7 wooden; bridge 7 metal water;
        pyramid 7; tower 7; hospital 7 electric; school 7 electric; garage 6; greenhouse
        6; treehouse 6 wooden; log cabin 6 wooden; doghouse 4 wooden""",
    "container": """
        box 3; bag 4; bottle 3; jar 3; basket 4 wooden; bucket 4; suitcase 4 wheels;
        backpack 4; envelope 3; barrel 5 wooden; wallet 2; vase 4; treasure chest 4
        wooden metal; trash can 4; piggy bank 3; shopping cart 5 wheels metal
        -indoors; lunchbox 3; purse 3""",
    "stationery": """
        pencil 3 wooden; pen 3; eraser 2; ruler 4 wooden; stapler 3 metal; paper clip 1
        metal; notebook 3; crayon 2; glue stick 2; sharpener 2 metal sharp; book 3;
        calendar 4; highlighter 2; thumbtack 1 metal sharp; compass 3 metal sharp""",
    "jewellery": """
        ring 1; necklace 3; bracelet 2; earring 1; crown 3; brooch 2; pendant 2; tiara 3;
        anklet 2; cufflink 1""",
}


#: Attributes given by list rather than per row: farm animals and meat eaters.
FARM = "horse cow pig sheep goat donkey chicken duck turkey goose"
CARNIVORE = """lion tiger bear wolf fox cheetah leopard eagle owl shark seal otter dolphin
    crocodile alligator snake komodo dragon piranha spider scorpion octopus penguin cat dog
    seagull salmon swordfish eel stingray venus flytrap mole hedgehog skunk raccoon bat"""


def main() -> None:
    """Write the two tables."""
    folder = Path(__file__).parent / "v1"
    categories = ["category\tparent"] + [f"{c}\t{p}" for c, (p, _) in CATEGORIES.items()]
    (folder / "categories.tsv").write_text("\n".join(categories) + "\n", encoding="utf-8")
    carnivores = set(
        " ".join(CARNIVORE.split())
        .replace("komodo dragon", "komodo_dragon")
        .replace("venus flytrap", "venus_flytrap")
        .split()
    )
    EXTRA = {"farm": set(FARM.split()), "carnivore": {c.replace("_", " ") for c in carnivores}}
    rows = ["name\tcategory\tsize\t" + "\t".join(ATTRIBUTES)]
    seen: set[str] = set()
    for category, text in ITEMS.items():
        defaults = set(CATEGORIES[category][1].split())
        for entry in " ".join(text.split()).split(";"):
            words = entry.split()
            at = next(i for i, w in enumerate(words) if w[0].isdigit())
            name, size, extra = " ".join(words[:at]), words[at], words[at + 1 :]
            if name in seen or name in CATEGORIES:
                raise ValueError(f"duplicate or category name {name!r}")
            seen.add(name)
            flags = set(defaults)
            for word in extra:
                if word.startswith("-"):
                    flags.discard(word[1:])
                elif word in ATTRIBUTES:
                    flags.add(word)
                else:
                    raise ValueError(f"{name}: unknown attribute {word!r}")
            flags.update(a for a, names in EXTRA.items() if name in names)
            yes_no = ["yes" if a in flags else "no" for a in ATTRIBUTES]
            rows.append("\t".join([name, category, size, *yes_no]))
    (folder / "objects.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"{len(rows) - 1} objects in {len(CATEGORIES)} categories")


if __name__ == "__main__":
    main()
