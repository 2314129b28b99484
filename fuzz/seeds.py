"""Writes the committed seed corpus, fuzz/corpus/<target>/, in the input layout
that fuzz/src/lib.rs documents: configuration bytes, then the text.

Run it again only to change the seeds: python3 fuzz/seeds.py
"""

import hashlib
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# Indices into LITERALS and REGEXES of fuzz/src/lib.rs.
BLANK, NL, STOP, SPACE, HARD, IDEO_STOP, IDEO_COMMA = 0, 1, 2, 3, 4, 5, 6
AA, DOUBLE_NL_NL = 11, 19
WS_RE, SENT_RE, BAD_RE, CATASTROPHIC_RE, EMPTY_RE = 160, 161, 165, 168, 170

REFUND = (
    "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n"
    "COD orders get store credit.\n\nContact us 24x7."
)
TEXTS = {
    "refund": REFUND,
    "letters": "abcdefghij",
    "x250": "x" * 250,
    "seed002": "aa\n\nbbb\ncccccc",
    "cjk": "今天天气很好。我们去公园散步吧！你觉得怎么样？",
    "base64": "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=" * 3,
    "markdown": "# Title\n\nSome *text* here.\n\n## Part\n\n- one\n- two\n\n```rust\nfn main() {}\n```\n",
    "python": "def f(x):\n    return x + 1\n\n\nclass A:\n    pass\n",
    "whitespace": "   \n\n\t \u3000 \n",
    "emoji": "😀👩\u200d💻e\u0301 😀😀 a😀b",
    "url": "see https://example.com/" + "a/b" * 30 + "?q=1 for more",
    "catastrophic": "a" * 300 + "b",
    "crlf": "line one\r\nline two\r\n\r\nline three",
    "empty": "",
    "separators": "\n\n\n\n. . . \n \n\n",
    "special": "Refunds <|endoftext|> take 5 days.<|fim_middle|> Bye <|",
}


def size(n):
    """The size bytes: small sizes are themselves, others a u16."""
    return bytes([n]) if n < 200 else bytes([200]) + n.to_bytes(2, "little")


def config(n, overlap=0, flags=0, seps=()):
    assert overlap <= 95, "the layout has no byte for a larger overlap"
    overlap_byte = 0 if overlap == 0 else 128 + overlap
    return size(n) + bytes([overlap_byte, flags, len(seps)]) + bytes(seps)


# Flag bits 6-7: count tokens.
CL100K, O200K = 0b01000000, 0b10000000

SEED = [BLANK, NL, STOP, SPACE, HARD]
CASES = [
    ("refund", config(40, seps=SEED)),
    ("refund", config(40, flags=0b0100, seps=SEED)),  # placement start
    ("refund", config(40, flags=0b1000, seps=SEED)),  # placement none
    ("refund", config(20, overlap=5, seps=SEED)),
    ("refund", config(13, flags=0b0010, seps=[BLANK, NL])),  # no trim, no hard cut
    ("letters", config(4, overlap=1)),
    ("x250", config(100, overlap=20)),
    ("x250", config(1000, seps=SEED)),
    ("seed002", config(3, seps=[BLANK, NL, HARD])),
    ("cjk", config(9, seps=[BLANK, IDEO_STOP, IDEO_COMMA, HARD])),
    ("cjk", config(5, flags=0b0001, seps=[IDEO_STOP])),  # bytes
    ("cjk", config(2, flags=0b0001)),  # bytes smaller than a char: refused
    ("base64", config(10, seps=SEED)),
    ("markdown", config(30, seps=[WS_RE, HARD])),
    ("markdown", config(25, overlap=7, seps=[BLANK, SENT_RE, SPACE])),
    ("python", config(20, seps=[BLANK, NL, SPACE, HARD])),
    ("whitespace", config(2, seps=SEED)),
    ("whitespace", config(3, flags=0b0010, seps=SEED)),
    ("emoji", config(3, flags=0b0001, seps=[SPACE])),
    ("emoji", config(1, seps=[SPACE, HARD])),
    ("url", config(16, seps=SEED)),
    ("catastrophic", config(50, seps=[CATASTROPHIC_RE, HARD])),
    ("catastrophic", config(7, seps=[EMPTY_RE])),
    ("catastrophic", config(7, seps=[BAD_RE])),  # invalid regex: refused
    ("crlf", config(12, seps=[DOUBLE_NL_NL, AA, NL, HARD])),
    ("empty", config(5, seps=SEED)),
    ("separators", config(1, flags=0b1000, seps=[BLANK, NL, STOP, SPACE])),
    ("refund", config(0, seps=SEED)),  # size 0: refused
    ("refund", config(10, overlap=10, seps=SEED)),  # overlap = size: refused
    ("refund", config(10)),  # no separators: refused by recursive
    ("refund", bytes([240, 224, 0, 2, NL, HARD])),  # size usize::MAX, overlap size - 1
    ("refund", bytes([242, 224, 1, 1, SPACE])),  # size 1e9 in bytes, overlap size - 1
    ("refund", config(6, seps=[210, 2, ord("y"), ord(" "), 210, 1, ord(".")])),  # own literals
    # For the LangChain target: flag bit 4 = CharacterTextSplitter, bit 5 = regex.
    ("refund", config(40, flags=0b010000, seps=[BLANK])),
    ("markdown", config(30, flags=0b100000, seps=[WS_RE, SENT_RE, HARD])),
    ("catastrophic", config(50, flags=0b100000, seps=[SENT_RE, HARD])),
    ("refund", config(10, overlap=10, seps=SEED)),  # overlap = size: LangChain allows it
    # Token units: flag bits 6-7 = 1 for cl100k, 2 for o200k.
    ("refund", config(12, overlap=3, flags=CL100K, seps=SEED)),
    ("refund", config(10, flags=O200K | 0b0100, seps=SEED)),  # placement start
    ("x250", config(7, overlap=2, flags=CL100K)),
    ("emoji", config(2, flags=CL100K, seps=[SPACE, HARD])),  # an emoji over 2 tokens: refused
    ("cjk", config(4, flags=O200K, seps=[IDEO_STOP, HARD])),
    ("markdown", config(9, overlap=4, flags=CL100K | 0b100000, seps=[WS_RE, SENT_RE, HARD])),
    ("special", config(6, flags=CL100K, seps=[SPACE, HARD])),  # LangChain: ValueError
    ("special", config(6, flags=O200K | 0b010000, seps=[STOP])),
]


def main():
    for target in ("fixed", "recursive", "langchain"):
        folder = os.path.join(HERE, "corpus", target)
        os.makedirs(folder, exist_ok=True)
        for name, header in CASES:
            data = header + TEXTS[name].encode("utf-8")
            digest = hashlib.sha1(data).hexdigest()[:12]
            with open(os.path.join(folder, f"{name}-{digest}"), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
