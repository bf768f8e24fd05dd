"""Words the app generator draws visible labels from: titles, settings, actions, pop-ups.

Screen titles are ``"<modifier> <noun>"`` pairs (every pair is distinct, so an app's
titles are unique and an instruction can name a screen by its title); the top-level
sections an icon leads to take the icon's concept word instead (one word, so never equal
to a pair). Everything here is plain data: the generator draws indices into these tuples.
"""

from __future__ import annotations

#: Names an app's home screen is titled with.
APP_NAMES: tuple[str, ...] = (
    "Pinecone",
    "Lumen",
    "Harbor",
    "Quill",
    "Nimbus",
    "Saffron",
    "Orbit",
    "Juniper",
    "Tessel",
    "Marlin",
    "Cobalt",
    "Fennel",
    "Aster",
    "Kestrel",
    "Mosaic",
    "Tundra",
    "Velvet",
    "Wren",
    "Zephyr",
    "Basalt",
)

TITLE_MODIFIERS: tuple[str, ...] = (
    "Recent",
    "Saved",
    "Shared",
    "Archived",
    "Pending",
    "Weekly",
    "Daily",
    "Team",
    "Personal",
    "Family",
    "Public",
    "Private",
    "Local",
    "Cloud",
    "Draft",
    "Open",
    "Closed",
    "Starred",
    "Hidden",
    "Linked",
    "Blocked",
    "Trusted",
    "Monthly",
    "Upcoming",
    "Past",
    "Default",
    "Custom",
    "Quick",
    "Advanced",
    "Backup",
)

TITLE_NOUNS: tuple[str, ...] = (
    "orders",
    "payments",
    "cards",
    "contacts",
    "groups",
    "photos",
    "albums",
    "videos",
    "playlists",
    "podcasts",
    "notes",
    "reminders",
    "events",
    "invoices",
    "receipts",
    "files",
    "folders",
    "devices",
    "sessions",
    "accounts",
    "addresses",
    "subscriptions",
    "reports",
    "projects",
    "tasks",
    "messages",
    "chats",
    "channels",
    "bookmarks",
    "downloads",
    "trips",
    "tickets",
    "recipes",
    "workouts",
    "goals",
    "budgets",
    "backups",
    "keys",
    "passwords",
    "languages",
    "fonts",
    "widgets",
    "shortcuts",
    "permissions",
    "labels",
    "filters",
    "templates",
    "drafts",
    "updates",
    "plans",
)

#: Number of distinct two-word titles.
NUM_PAIR_TITLES = len(TITLE_MODIFIERS) * len(TITLE_NOUNS)


def pair_title(code: int) -> str:
    """The two-word title numbered ``code`` (``0 <= code < NUM_PAIR_TITLES``)."""
    modifier, noun = divmod(code, len(TITLE_NOUNS))
    return f"{TITLE_MODIFIERS[modifier]} {TITLE_NOUNS[noun]}"


#: The section title an icon stands for (icons from
#: :data:`~envsuite.families.gui.icon_shapes.ICON_NAMES`; close, back, home and menu are
#: chrome and never lead to a section).
ICON_CONCEPTS: dict[str, str] = {
    "settings": "Settings",
    "user": "Profile",
    "mail": "Mail",
    "bell": "Notifications",
    "star": "Favourites",
    "calendar": "Calendar",
    "search": "Search",
    "heart": "Likes",
    "lock": "Security",
    "trash": "Trash",
    "check": "Tasks",
    "plus": "Create",
}

#: Names of on/off settings (checkboxes) a screen may hold.
SETTING_NAMES: tuple[str, ...] = (
    "Dark mode",
    "Auto-play videos",
    "Read receipts",
    "Sync over Wi-Fi only",
    "Show previews",
    "Location access",
    "Two-step sign-in",
    "Email digests",
    "Sound effects",
    "Vibrate on alerts",
    "Compact view",
    "Large text",
    "Auto-update",
    "Save history",
    "Offline mode",
    "Show badges",
    "Data saver",
    "Public profile",
    "Autocorrect",
    "Backup photos",
    "Remember me",
    "Night light",
    "Do not disturb",
    "Show hints",
)

#: Names of one-shot action buttons a screen may hold (pressing the wrong one fails).
ACTION_NAMES: tuple[str, ...] = (
    "Export data",
    "Clear cache",
    "Sync now",
    "Reset filters",
    "Archive all",
    "Mark all read",
    "Refresh list",
    "Share link",
    "Print summary",
    "Send invite",
    "Restore backup",
    "Empty folder",
    "Verify email",
    "Download report",
    "Rename item",
    "Duplicate",
)

#: Distractor pop-ups: (dialog title, message, confirm label, dismiss label).
POPUPS: tuple[tuple[str, str, str, str], ...] = (
    ("Enjoying the app?", "Rate us in the store.", "Rate now", "Not now"),
    ("Stay in the loop", "Turn on notifications?", "Allow", "Later"),
    ("Try Premium", "First month free.", "Start trial", "No thanks"),
    ("Cookies", "We use cookies to improve.", "Accept", "Close"),
    ("What's new", "Version 2 is here.", "Show me", "Dismiss"),
)

#: Labels of a screen's tabs, in order.
TAB_LABELS: tuple[str, ...] = ("Main", "More", "Other")
