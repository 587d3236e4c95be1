"""Mutation sites of a Swift module, the equivalent-mutant list and the module table.

A site is one operator in code (not in a comment or a string literal) that the runner can flip:
comparisons, && and ||, binary + and - (and += / -=), true and false.
"""
import dataclasses
import os
import re

FLIPS = {
    "==": "!=", "!=": "==", "<": ">=", ">": "<=", "<=": ">", ">=": "<",
    "&&": "||", "||": "&&", "+": "-", "-": "+", "+=": "-=", "-=": "+=",
    "true": "false", "false": "true",
}
# An operator stands between spaces (so generics, arrows, ranges and unary signs are not sites).
OPERATOR = re.compile(r"(?<=\s)(==|!=|<=|>=|&&|\|\||\+=|-=|<|>|\+|-)(?=\s)|\b(true|false)\b")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


@dataclasses.dataclass(frozen=True)
class Site:
    """One operator that can be flipped: file relative to the package, 1-based line and column."""
    file: str
    line: int
    column: int
    op: str

    @property
    def new(self):
        return FLIPS[self.op]

    @property
    def key(self):
        return f"{self.file}:{self.line}:{self.column} {self.op}→{self.new}"

    def apply(self, text):
        """The file's text with this site flipped; ValueError when the operator is not there."""
        lines = text.split("\n")
        row = lines[self.line - 1]
        start = self.column - 1
        if row[start:start + len(self.op)] != self.op:
            raise ValueError(f"{self.key}: the source has {row[start:start + len(self.op)]!r} there")
        lines[self.line - 1] = row[:start] + self.new + row[start + len(self.op):]
        return "\n".join(lines)


def blank(match):
    return " " * len(match.group(0))


def file_sites(root, relative):
    """Every site of one Swift file, skipping comments, string literals and compiler directives."""
    found = []
    in_block_comment = False
    in_multiline_string = False
    with open(os.path.join(root, relative), encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            code = raw.rstrip("\n")
            if in_multiline_string:
                if '"""' in code:
                    in_multiline_string = False
                continue
            if in_block_comment:
                end = code.find("*/")
                if end < 0:
                    continue
                code = " " * (end + 2) + code[end + 2:]
                in_block_comment = False
            if code.lstrip().startswith("#"):
                continue
            if code.count('"""') % 2 == 1:
                in_multiline_string = True
                code = code[:code.index('"""')]
            code = STRING.sub(blank, code)
            comment = code.find("//")
            if comment >= 0:
                code = code[:comment]
            start = code.find("/*")
            if start >= 0:
                end = code.find("*/", start + 2)
                if end < 0:
                    in_block_comment = True
                    code = code[:start]
                else:
                    code = code[:start] + " " * (end + 2 - start) + code[end + 2:]
            for match in OPERATOR.finditer(code):
                op = match.group(1) or match.group(2)
                found.append(Site(relative, number, match.start() + 1, op))
    return found


def module_sites(root, source_dir):
    """Every site under source_dir (relative to root), in file order."""
    files = []
    for directory, _, names in os.walk(os.path.join(root, source_dir)):
        for name in names:
            if name.endswith(".swift"):
                files.append(os.path.relpath(os.path.join(directory, name), root))
    return [site for relative in sorted(files) for site in file_sites(root, relative)]


def source_line(root, site):
    with open(os.path.join(root, site.file), encoding="utf-8") as handle:
        return handle.read().split("\n")[site.line - 1].strip()


ENTRY = re.compile(r"^(\S+):(\d+):(\d+)\s+(\S+?)\s*(?:→|->)\s*(\S+)\s+(\S.*)$")


def read_equivalents(path):
    """The equivalent-mutant list: {key: reason}. Lines: `file:line:column op→new  reason`."""
    entries = {}
    if not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            match = ENTRY.match(line)
            if not match or FLIPS.get(match.group(4)) != match.group(5):
                raise ValueError(f"{path}:{number}: expected 'file:line:column op→new  reason', got {line!r}")
            site = Site(match.group(1), int(match.group(2)), int(match.group(3)), match.group(4))
            entries[site.key] = match.group(6)
    return entries


def read_modules(path):
    """The module table: [(module, [test target, ...])] in file order."""
    modules = []
    with open(path, encoding="utf-8") as handle:
        for raw in handle:
            fields = raw.split("#", 1)[0].split()
            if fields:
                if len(fields) < 2:
                    raise ValueError(f"{path}: module {fields[0]} names no test target")
                modules.append((fields[0], fields[1:]))
    return modules
