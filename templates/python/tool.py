"""Counts the words and characters of a text and prints them as JSON.

The tool next to this file runs it with the text as its first argument, passed as a separate
argument (no shell), so the text arrives exactly as the model sent it.
"""

import json
import sys


def main(argv):
    text = argv[1] if len(argv) > 1 else ""
    print(json.dumps({"text": text, "words": len(text.split()), "characters": len(text)}))


if __name__ == "__main__":
    main(sys.argv)
