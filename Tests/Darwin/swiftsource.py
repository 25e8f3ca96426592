"""What the availability check must know of a Swift source file without compiling it for Apple platforms.

- Which lines Apple platforms compile: `#if`/`#elseif`/`#else` branches evaluated as a macOS or iOS build would
  (`canImport(Darwin)` holds, `os(Linux)` and `canImport(Glibc)` do not).
- Which byte ranges an availability context covers: the body of `if #available(...)` or `while #available(...)`,
  the rest of the block after `guard #available(...) else { ... }`, and a declaration marked
  `@available(macOS N, ...)` from its attribute to the end of its body.

Positions are byte offsets into the file's UTF-8, which is what the index store's columns count.
"""

import re

APPLE_PLATFORMS = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")

# Modules that exist on Apple platforms but not here, and the reverse.
# Modules that one side lacks: on an Apple platform `canImport` holds for any module but the first set, on
# Linux for any but the second.
_LINUX_ONLY_MODULES = {"Glibc", "Musl", "Android", "Bionic", "WinSDK", "FoundationNetworking", "FoundationXML"}
_APPLE_ONLY_MODULES = {"Darwin", "MachO", "ObjectiveC", "Network", "os", "UIKit", "AppKit"}


# MARK: - Tokens


def tokens(source):
    """`(kind, text, start, end)` for the Swift code in `source` (bytes): words, `#word`, `@word`, punctuation;
    comments dropped and each string literal one `"string"` token."""
    i, n = 0, len(source)
    while i < n:
        c = source[i:i + 1]
        if c in b" \t\r\n":
            i += 1
        elif source.startswith(b"//", i):
            end = source.find(b"\n", i)
            i = n if end < 0 else end
        elif source.startswith(b"/*", i):
            i = _block_comment_end(source, i)
        elif c == b'"' or (c == b"#" and re.match(rb'#+"', source[i:i + 8])):
            end = _string_end(source, i)
            yield "string", source[i:end], i, end
            i = end
        elif c.isalnum() or c == b"_" or (c in b"#@`" and i + 1 < n and (source[i + 1:i + 2].isalpha())):
            match = re.compile(rb"[#@`]?[A-Za-z0-9_]+`?").match(source, i)
            yield "word", match.group(0), i, match.end()
            i = match.end()
        else:
            yield "punct", c, i, i + 1
            i += 1


def _block_comment_end(source, i):
    depth = 0
    while i < len(source):
        if source.startswith(b"/*", i):
            depth, i = depth + 1, i + 2
        elif source.startswith(b"*/", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                return i
        else:
            i += 1
    return i


def _string_end(source, i):
    """The end of the string literal at `i`: raw (`#"..."#`), multi-line (`\"\"\"`) or plain. Interpolations
    are skipped by balancing their parentheses."""
    hashes = len(re.match(rb"#*", source[i:]).group(0))
    i += hashes
    quote = b'"""' if source.startswith(b'"""', i) else b'"'
    i += len(quote)
    closing = quote + b"#" * hashes
    escape = b"\\" + b"#" * hashes
    while i < len(source):
        if source.startswith(escape, i):
            i += len(escape)
            if source.startswith(b"(", i):
                i = _balanced_end(source, i)
            else:
                i += 1
        elif source.startswith(closing, i):
            return i + len(closing)
        elif quote == b'"' and source[i:i + 1] == b"\n":
            return i  # An unterminated literal ends at the line; the compiler has rejected it already.
        else:
            i += 1
    return i


def _balanced_end(source, i):
    depth = 0
    while i < len(source):
        c = source[i:i + 1]
        if c == b'"':
            i = _string_end(source, i)
            continue
        if c == b"(":
            depth += 1
        elif c == b")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


# MARK: - Conditional compilation


def inactive_ranges(source, platform):
    """Byte ranges of the lines that a build for `platform` does not compile (inside an `#if` branch that
    does not hold there)."""
    ranges, stack, offset = [], [], 0  # stack: [a branch was taken, this branch is taken]
    for line in source.split(b"\n"):
        end = offset + len(line) + 1
        directive = re.match(rb"#(if|elseif|else|endif)\b(.*)", line.strip())
        if directive:
            keyword, condition = directive.group(1), directive.group(2).split(b"//")[0].strip().decode()
            if keyword == b"if":
                holds = _evaluate(condition, platform)
                stack.append([holds, holds])
            elif stack and keyword in (b"elseif", b"else"):
                holds = not stack[-1][0] and (keyword == b"else" or _evaluate(condition, platform))
                stack[-1] = [stack[-1][0] or holds, holds]
            elif stack:
                stack.pop()
        elif not all(taken for _, taken in stack):
            if ranges and ranges[-1][1] == offset:
                ranges[-1] = (ranges[-1][0], end)
            else:
                ranges.append((offset, end))
        offset = end
    return ranges


def _evaluate(condition, platform):
    """A `#if` condition for a build on `platform` (an Apple one, or "Linux"): `os()`, `canImport()`, `!`, `&&`,
    `||`, parentheses;
    anything else (`DEBUG`, `compiler(...)`, `swift(...)`, `arch(...)`, `hasFeature(...)`) counts as true."""

    def atom(match):
        function, argument = match.group(1), match.group(2).strip()
        if function == "os":
            holds = argument == platform
        elif function == "canImport":
            module = argument.split(".")[0].split(",")[0].strip()
            holds = module not in (_APPLE_ONLY_MODULES if platform == "Linux" else _LINUX_ONLY_MODULES)
        else:
            holds = True
        return " True " if holds else " False "

    expression = re.sub(r"\b(os|canImport|compiler|swift|arch|targetEnvironment|hasFeature|hasAttribute)"
                        r"\s*\(([^)]*)\)", atom, condition)
    expression = re.sub(r"\b(?!True\b|False\b)[A-Za-z_][A-Za-z0-9_]*\b", " True ", expression)
    expression = expression.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    try:
        return bool(eval(expression, {"__builtins__": {}}, {}))  # only True/False/and/or/not remain
    except SyntaxError:
        return True


# MARK: - Availability contexts


def availability_contexts(source):
    """`(start, end, {platform: (major, minor)})` for each availability context in `source`."""
    toks = list(tokens(source))
    pairs = _brace_pairs(toks)
    opening = {close: open_ for open_, close in pairs.items()}
    contexts = []
    for index, (kind, text, start, _) in enumerate(toks):
        if text in (b"#available", b"@available") and index + 1 < len(toks) and toks[index + 1][1] == b"(":
            arguments, after = _arguments(toks, index + 1)
            versions = _versions(arguments)
            if not versions:
                continue
            if text == b"@available":
                body = _next_brace(toks, after)
                end = toks[pairs[body]][3] if body is not None and body in pairs else toks[after - 1][3]
                contexts.append((start, end, versions))
            else:
                statement = _statement_keyword(toks, index)
                body = _next_brace(toks, after)
                if body is None or body not in pairs:
                    continue
                if statement == b"guard":
                    enclosing = _enclosing_close(toks, pairs, opening, index)
                    contexts.append((toks[pairs[body]][3], enclosing, versions))
                else:
                    contexts.append((toks[body][2], toks[pairs[body]][3], versions))
    return contexts


def _brace_pairs(toks):
    pairs, stack = {}, []
    for index, token in enumerate(toks):
        if token[1] == b"{":
            stack.append(index)
        elif token[1] == b"}" and stack:
            pairs[stack.pop()] = index
    return pairs


def _arguments(toks, open_index):
    """The comma-separated arguments inside the parentheses at `open_index`, each as its words' texts,
    and the index after the closing parenthesis."""
    depth, arguments, current, index = 0, [], [], open_index
    while index < len(toks):
        text = toks[index][1]
        if text == b"(":
            depth += 1
            if depth > 1:
                current.append(text)
        elif text == b")":
            depth -= 1
            if depth == 0:
                arguments.append(current)
                return arguments, index + 1
            current.append(text)
        elif text == b"," and depth == 1:
            arguments.append(current)
            current = []
        else:
            current.append(text)
        index += 1
    return arguments, index


def _versions(arguments):
    """`{platform: version}` from `macOS 15, iOS 18.1, *` or `macOS, introduced: 15`."""
    versions = {}
    words = [b"".join(argument).decode() for argument in arguments]
    for word in words:
        match = re.fullmatch(r"(macOS|iOS|tvOS|watchOS|visionOS|macCatalyst)(\d+(?:\.\d+)*)", word)
        if match:
            versions[match.group(1)] = _version(match.group(2))
    if not versions and words and words[0] in APPLE_PLATFORMS:
        for word in words[1:]:
            match = re.fullmatch(r"introduced:(\d+(?:\.\d+)*)", word)
            if match:
                versions[words[0]] = _version(match.group(1))
    return versions


def _version(text):
    parts = [int(part) for part in text.split(".")] + [0]
    return parts[0], parts[1]


def _next_brace(toks, index):
    depth = 0
    while index < len(toks):
        text = toks[index][1]
        if text in (b"(", b"["):
            depth += 1
        elif text in (b")", b"]"):
            depth -= 1
        elif text == b"{" and depth == 0:
            return index
        elif text == b"}":
            return None
        index += 1
    return None


def _statement_keyword(toks, index):
    depth = 0
    while index > 0:
        index -= 1
        text = toks[index][1]
        if text in (b")", b"]"):
            depth += 1
        elif text in (b"(", b"["):
            depth -= 1
        elif depth == 0 and text in (b"if", b"guard", b"while"):
            return text
        elif depth == 0 and text in (b"{", b"}", b";"):
            return None
    return None


def _enclosing_close(toks, pairs, opening, index):
    """The end of the innermost block around token `index`."""
    best = None
    for open_, close in pairs.items():
        if open_ < index < close and (best is None or open_ > best[0]):
            best = (open_, close)
    return toks[best[1]][3] if best else toks[-1][3]
