#!/usr/bin/env python3
"""Differential test of the YAML reader against PyYAML.

    Tests/Fuzz/run.sh [documents] yaml-differential      # builds the reader's CLI, makes the venv, runs this

or by hand, in a virtual environment with PyYAML (python3 -m venv .build/yaml-venv; .build/yaml-venv/bin/pip
install pyyaml):

    .build/yaml-venv/bin/python Tests/Fuzz/yaml_differential.py --reader .build-fuzz/yaml-to-json \
        --documents 5000 --seeds Tests/ContractModelTests/YAMLSuite Tests/ContractModelTests/OpenAPIExamples

Documents: the seed files; documents written from random OpenAPI-like values, by PyYAML's emitter (random
options) and by a style mixer of our own (block scalars with chomping and indentation indicators, flow
collections over lines, compact and indentless sequences, quoting and escapes, comments, anchors, aliases
and merge keys, explicit keys, tags, document markers); and random mutations of all of these. Each document
goes through our reader (yaml-to-json --batch) and through PyYAML, and the outcomes are compared: the same
value, or an error from both.

The oracle is PyYAML's parser (pure Python; libyaml's, through CSafeLoader, is asked too when the two
disagree) with our reader's rules for what it builds, so that the parsers are what is compared:
  - plain scalars resolve by the YAML 1.2 core schema, not PyYAML's YAML 1.1 one: yes/no/on/off, 0777
    octal, 1_000, 60-based 1:30, timestamps and '=' are strings; 0o17 and 1e3 are numbers;
  - .inf and .nan are errors (JSON cannot hold them), as are tags other than !!str !!int !!float !!bool
    !!null !!map !!seq and '!';
  - mapping keys are the text of scalar keys; keys that are collections, empty keys and repeated keys
    are errors; '<<' merges as PyYAML merges.

Known differences, counted and printed but not reported as disagreements:
  - tab: PyYAML refuses tabs that YAML 1.2 allows as separation (after ':' or '-', between the words of
    a plain scalar): we read, PyYAML fails with "found character '\\t' that cannot start any token".
  - tag-directive: we refuse %TAG directives; PyYAML applies them.
  - anchor-redefined: YAML 1.2 lets an anchor be defined again (an alias takes the latest); PyYAML refuses.
  - comment-space: YAML 1.2 needs white space before a comment's '#' (`"a"#b` is an error, as the
    yaml-test-suite says); PyYAML reads it as a comment.
  - dash-in-flow: a plain '-' alone in a flow collection (`[-]`) is an error in YAML 1.2 (yaml-test-suite
    G5U8); PyYAML reads the string '-'.
  - top-level-block-scalar: a top-level `|` or `>` scalar may have its text at column 0 in YAML 1.2 (suite
    FP8R, DK3J); PyYAML ends the scalar there, and fails on the text or reads an empty string.
  - block-scalar-leading-spaces: an empty line before a block scalar's first line of text may not have
    more spaces than that line (yaml-test-suite 5LLU, S98Z, W9L4); PyYAML reads it.
  - leading-document-end: a stream may start with '...' (a document suffix), then hold a document or none
    (null), in YAML 1.2; PyYAML fails.
  - directive-name: a reserved directive's name is any non-space characters in YAML 1.2 (`%YAML*a` is
    reserved, and ignored); PyYAML allows letters and digits only.
  - anchor-name: YAML 1.2 lets an anchor's name hold any character but white space and ',[]{}' (`&a:`);
    PyYAML and libyaml allow letters, digits, '-' and '_' only: they read another anchor, or fail.
  - yaml-1.1-break: PyYAML takes U+0085, U+2028 and U+2029 as line breaks (YAML 1.1); such documents
    are skipped.
  - pyyaml-only: PyYAML fails (or gives another value) where libyaml gives our value: a PyYAML bug.
  - flow-plain-indicator: in a flow collection, a plain scalar may start with ':' or '?' followed by a
    non-space (`{x: :y}`, `[?z]`) in YAML 1.2; PyYAML takes the ':' or '?' as an indicator, and reads
    another value, or fails, or (a '?z' key spanning lines in a flow sequence) reads what we refuse.
  - recursive-alias: an alias inside the node it refers to makes a recursive structure, which JSON cannot
    hold: we refuse it; PyYAML builds it.
  - bare-tag-in-flow: '!' alone before ',', ']' or '}' (`{!}`) tags an empty node in YAML 1.2; PyYAML
    wants a tag name after it.
  - both-stricter: both PyYAML and libyaml refuse what we read, for a rule listed in LENIENT below, where
    we follow YAML 1.2 and they do not (multi-line keys in flow mappings, ':' after a JSON-like key on a
    later line, plain scalars that start with ':' or '?' inside flow collections).
Anything else is a disagreement: printed with its document, and the exit status is 1.
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys

import yaml

# MARK: - The oracle: PyYAML with the YAML 1.2 core schema and our key rules

CORE_TAGS = {'tag:yaml.org,2002:' + name for name in ('str', 'int', 'float', 'bool', 'null', 'map', 'seq')}


class OracleError(Exception):
    pass


def oracle_loader(base):
    class Loader(base):
        pass

    Loader.yaml_implicit_resolvers = {}
    Loader.yaml_constructors = {}           # not SafeLoader's: no !!set, !!omap, !!binary, !!timestamp
    resolvers = [
        ('tag:yaml.org,2002:null', r'^(?:~|null|Null|NULL|)$', list('~nN') + ['']),
        ('tag:yaml.org,2002:bool', r'^(?:true|True|TRUE|false|False|FALSE)$', list('tTfF')),
        ('tag:yaml.org,2002:int', r'^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$', list('-+0123456789')),
        ('tag:yaml.org,2002:float',
         r'^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$',
         list('-+.0123456789')),
        ('tag:yaml.org,2002:merge', r'^<<$', ['<']),
    ]
    for tag, pattern, first in resolvers:
        Loader.add_implicit_resolver(tag, re.compile(pattern), first)

    def construct_int(loader, node):
        text = loader.construct_scalar(node)
        if re.fullmatch(r'0o[0-7]+', text):
            return int(text[2:], 8)
        if re.fullmatch(r'0x[0-9a-fA-F]+', text):
            return int(text[2:], 16)
        if re.fullmatch(r'[-+]?[0-9]+', text):
            return int(text)
        raise OracleError('not an int: %r' % text)

    def construct_float(loader, node):
        text = loader.construct_scalar(node)
        if re.fullmatch(r'[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)', text):
            raise OracleError('.inf or .nan')
        if re.fullmatch(r'[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?', text):
            value = float(text)
            if math.isinf(value):
                raise OracleError('too large')
            return value
        return construct_int(loader, node)

    def construct_bool(loader, node):
        text = loader.construct_scalar(node)
        if text in ('true', 'True', 'TRUE'):
            return True
        if text in ('false', 'False', 'FALSE'):
            return False
        raise OracleError('not a bool: %r' % text)

    def construct_null(loader, node):
        if loader.construct_scalar(node) not in ('', '~', 'null', 'Null', 'NULL'):
            raise OracleError('not a null')
        return None

    def construct_str(loader, node):
        if not isinstance(node, yaml.ScalarNode):
            raise OracleError('!!str on a collection')
        return loader.construct_scalar(node)

    def construct_seq(loader, node):
        if not isinstance(node, yaml.SequenceNode):
            raise OracleError('!!seq on another node')
        return loader.construct_sequence(node, deep=True)

    def construct_map(loader, node):
        if not isinstance(node, yaml.MappingNode):
            raise OracleError('!!map on another node')
        seen = set()
        merges = 0
        for key, _ in node.value:
            if not isinstance(key, yaml.ScalarNode):
                raise OracleError('a key that is a collection')
            if key.tag == 'tag:yaml.org,2002:merge':
                merges += 1
                if merges > 1:
                    raise OracleError('two merge keys')
                continue
            if key.value == '' and key.style is None and key.tag != 'tag:yaml.org,2002:str':
                raise OracleError('an empty key')
            if key.value in seen:
                raise OracleError('a repeated key')
            seen.add(key.value)
            if key.tag not in CORE_TAGS and key.tag != '!':
                raise OracleError('a key with tag %s' % key.tag)
            if key.tag not in ('tag:yaml.org,2002:str', '!') and (key.style is not None or key.tag in CORE_TAGS):
                loader.construct_object(key, deep=True)     # a tagged key must fit its tag
        for key, value in node.value:
            if key.tag == 'tag:yaml.org,2002:merge':
                merged = value.value if isinstance(value, yaml.SequenceNode) else [value]
                if not merged or not all(isinstance(item, yaml.MappingNode) for item in merged):
                    raise OracleError('a merge of something else')
        loader.flatten_mapping(node)
        result = {}
        for key, value in node.value:
            result[key.value] = loader.construct_object(value, deep=True)
        return result

    def compose_scalar_node(loader, anchor):
        # '!' makes a scalar a string ("not resolved by the schema"); PyYAML resolves it as if untagged.
        event = loader.peek_event()
        if event.tag == '!':
            event.tag = 'tag:yaml.org,2002:str'
        return base.compose_scalar_node(loader, anchor)

    Loader.compose_scalar_node = compose_scalar_node
    for tag, function in [('int', construct_int), ('float', construct_float), ('bool', construct_bool),
                          ('null', construct_null), ('str', construct_str), ('seq', construct_seq),
                          ('map', construct_map)]:
        Loader.add_constructor('tag:yaml.org,2002:' + tag, function)
    Loader.add_constructor('!', lambda loader, node: loader.construct_scalar(node)
                           if isinstance(node, yaml.ScalarNode) else
                           construct_map(loader, node) if isinstance(node, yaml.MappingNode) else
                           construct_seq(loader, node))
    Loader.add_constructor(None, lambda loader, node: (_ for _ in ()).throw(OracleError('tag ' + node.tag)))
    return Loader


PY_LOADER = oracle_loader(yaml.SafeLoader)
C_LOADER = oracle_loader(yaml.CSafeLoader) if hasattr(yaml, 'CSafeLoader') else None


def load(text, loader):
    """('ok', value) or ('error', message)."""
    try:
        documents = list(yaml.load_all(text, Loader=loader))
        if len(documents) > 1:
            return ('error', 'more than one document')
        return ('ok', normalize(documents[0] if documents else None))
    except (yaml.YAMLError, OracleError, RecursionError, ValueError, TypeError) as error:
        return ('error', str(error).replace('\n', ' '))


def normalize(value):
    """Numbers as floats, as JSONValue holds them; anything that is not JSON is an error."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list):
        return [normalize(item) for item in value]
    if isinstance(value, dict):
        return {key: normalize(item) for key, item in value.items()}
    raise OracleError('not JSON: %r' % type(value))


def ours(reader, texts):
    """Runs our reader over the documents in one process: ('ok', value) or ('error', message) each."""
    framed = b''.join(str(len(data)).encode() + b'\n' + data for data in (t.encode('utf-8', 'surrogatepass')
                                                                         for t in texts))
    output = subprocess.run([reader, '--batch'], input=framed, capture_output=True, check=True).stdout
    results = []
    for line in output.decode().split('\n')[:len(texts)]:
        if line.startswith('ok '):
            results.append(('ok', normalize(json.loads(line[3:]))))
        else:
            results.append(('error', line[len('error '):]))
    return results

# MARK: - Documents


WORDS = ['pet', 'Pets', 'id', 'name', 'tag', 'status', 'available', 'a b', 'x: y', 'a #b', '#c', '- d', '? e',
         'yes', 'No', 'on', 'null', '~', 'True', '1.0', '0777', '0o17', '0x1F', '1e3', '.5', '-1', '12:30',
         '2024-01-02', '1_000', '', ' lead', 'trail ', 'tab\there', 'line\nbreak', 'two\n\nbreaks',
         'trailing newline\n', 'quote \' and " and \\', 'café', '😀', '/pets/{petId}', 'http://x.io/a#b',
         '*star', '&amp', '!bang', '%pct', '@at', '`tick', '{brace}', '[bracket]', 'a,b', '---', '...', '<<',
         'application/json', '$ref', '#/components/schemas/Pet', 'control\x01char', 'del\x7f', 'nbsp\xa0']
KEYS = ['openapi', 'info', 'title', 'version', 'paths', '/pets', '/pets/{id}', 'get', 'post', 'parameters',
        'name', 'in', 'required', 'schema', 'type', 'format', 'responses', '200', '404', 'default',
        'description', 'content', 'application/json', 'example', 'examples', 'items', 'properties', 'enum',
        '$ref', 'allOf', 'oneOf', 'components', 'schemas', 'tags', 'servers', 'url', 'x-extension', 'true',
        '1.5', 'a b', "it's", 'key: colon', '- dash', '#hash', '']
NUMBERS = [0, 1, -1, 200, 404, 3.5, -0.25, 1e20, 123456789012, 2 ** 53, 1.5e-7, 0.1]


def random_value(rng, depth=0):
    roll = rng.random()
    if depth < 5 and roll < 0.3:
        return {rng.choice(KEYS) + ('' if rng.random() < 0.7 else str(rng.randint(0, 9))): random_value(rng, depth + 1)
                for _ in range(rng.randint(0, 5))}
    if depth < 5 and roll < 0.45:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if roll < 0.8:
        if rng.random() < 0.8:
            return rng.choice(WORDS)
        return ' '.join(rng.choice(WORDS) for _ in range(rng.randint(2, 12)))
    if roll < 0.9:
        return rng.choice(NUMBERS)
    return rng.choice([True, False, None])


def pyyaml_dump(rng, value):
    return yaml.safe_dump(value, default_flow_style=rng.choice([False, True, None]), indent=rng.choice([2, 3, 4]),
                          width=rng.choice([12, 40, 80, 10 ** 6]), allow_unicode=rng.random() < 0.5,
                          canonical=rng.random() < 0.05, explicit_start=rng.random() < 0.2,
                          explicit_end=rng.random() < 0.1, sort_keys=rng.random() < 0.5)


class Mixer:
    """Writes a value as YAML in randomly chosen styles. It need not always be right: whatever it writes,
    both readers must agree on."""

    def __init__(self, rng):
        self.rng = rng
        self.step = rng.choice([1, 2, 2, 3, 4])
        self.anchors = []

    def document(self, value):
        rng = self.rng
        head = rng.choice(['', '', '---\n', '--- # start\n', '%YAML 1.2\n---\n', '# comment\n'])
        tail = rng.choice(['', '', '...\n', '# end\n', '\n\n'])
        if isinstance(value, (dict, list)) and value and rng.random() < 0.8:
            return head + '\n'.join(self.block(value, 0)) + '\n' + tail
        inline, lines = self.entry(value, -1)
        return head + inline.lstrip() + ''.join('\n' + line for line in lines) + '\n' + tail

    def block(self, value, column):
        """The lines of a block collection whose entries start at `column`."""
        rng = self.rng
        pad = ' ' * column
        lines = []
        if isinstance(value, dict):
            mergeable = [name for name, anchored in self.anchors
                         if isinstance(anchored, dict) and anchored is not value]
            if mergeable and rng.random() < 0.2:
                lines.append(pad + '<<: ' + ('*' + rng.choice(mergeable) if rng.random() < 0.7 else
                                             '[' + ', '.join('*' + name for name in mergeable[:3]) + ']'))
            for key, item in value.items():
                written = self.scalar(key, column, True)
                if '\n' in written or not key:
                    written = json.dumps(key)
                inline, rest = self.entry(item, column)
                if rng.random() < 0.05:
                    lines += [pad + '? ' + written, pad + ':' + inline] + rest
                else:
                    lines += [pad + written + rng.choice([':', ':', ' :', ':\t']) + inline] + rest
                if rng.random() < 0.05:
                    lines.append(pad + rng.choice(['# a comment', '', '  # indented comment']))
            return lines
        for item in value:
            if isinstance(item, dict) and item and rng.random() < 0.5:
                nested = self.block(item, column + 2)
                lines += [pad + '- ' + nested[0].lstrip(' ')] + nested[1:]
            else:
                inline, rest = self.entry(item, column)
                lines += [pad + '-' + inline] + rest
        return lines

    def entry(self, value, column):
        """How `value` follows a key or a '-' at `column`: text for that line, and the lines after it."""
        rng = self.rng
        if isinstance(value, (dict, list)) and value:
            for name, anchored in self.anchors:
                if anchored == value and rng.random() < 0.5:
                    return ' *' + name, []
            anchor = ''
            if rng.random() < 0.15:
                anchor = ' &a%d' % len(self.anchors)
                self.anchors.append(('a%d' % len(self.anchors), value))
            if rng.random() < 0.25:
                return anchor + ' ' + self.flow(value, column), []
            indentless = isinstance(value, list) and rng.random() < 0.4 and column >= 0
            return anchor, self.block(value, column if indentless else max(column, 0) + self.step)
        if isinstance(value, (dict, list)):
            return ' ' + self.flow(value, column), []
        written = self.scalar(value, column, False)
        if '\n' in written:
            first, rest = written.split('\n', 1)
            return ' ' + first, rest.split('\n')
        return (' ' + written) if written or rng.random() < 0.5 else '', []

    def scalar(self, value, column, in_flow):
        rng = self.rng
        if value is None:
            return rng.choice(['null', '~', '', 'Null', '!!null ""'])
        if value is True or value is False:
            text = str(value).lower()
            return rng.choice([text, text.capitalize(), text.upper(), '!!bool "%s"' % text])
        if isinstance(value, (int, float)):
            if isinstance(value, int) and value >= 0 and rng.random() < 0.2:
                return rng.choice(['0x%x' % value, '0o%o' % value, '!!int "%d"' % value])
            return repr(value)
        choice = rng.random()
        if choice < 0.35 and self.plain_safe(value, in_flow):
            return value
        if choice < 0.5:
            return "'" + value.replace("'", "''") + "'"
        if choice < 0.7 or in_flow or '\n' not in value.rstrip('\n'):
            return self.double_quoted(value)
        return self.block_scalar(value, column)

    def plain_safe(self, text, in_flow):
        try:
            return yaml.load(text, Loader=PY_LOADER) == text and not (in_flow and any(c in text for c in ',[]{}'))
        except Exception:
            return False

    def double_quoted(self, text):
        rng = self.rng
        out = []
        for character in text:
            code = ord(character)
            if character in '"\\':
                out.append('\\' + character)
            elif code < 0x20 or code == 0x7f or rng.random() < 0.03:
                out.append(rng.choice(['\\x%02x' % code, '\\u%04x' % code, '\\U%08x' % code]) if code < 0x100 else
                           '\\u%04x' % code if code < 0x10000 else '\\U%08x' % code)
            elif character == ' ' and rng.random() < 0.05:
                out.append(rng.choice(['\\ ', ' \\\n  ']))
            else:
                out.append(character)
        return '"' + ''.join(out) + '"'

    def block_scalar(self, text, column):
        rng = self.rng
        chomp = '+' if text.endswith('\n\n') else '' if text.endswith('\n') else '-'
        folded = rng.random() < 0.4
        indicator = rng.randint(1, 3) if rng.random() < 0.3 else None
        body = max(column, 0) + (indicator if indicator else rng.randint(1, 3))
        lines = text.rstrip('\n').split('\n')
        if folded:
            # Folding joins lines with a space: write each line break as an empty line between the lines.
            lines = [line for part in lines for line in (part, '')][:-1]
        lines += [''] * (len(text) - len(text.rstrip('\n')) - 1 if chomp == '+' else 0)
        header = ('>' if folded else '|') + (chomp + str(indicator or '') if rng.random() < 0.5
                                            else str(indicator or '') + chomp)
        return header + '\n' + '\n'.join((' ' * body + line) if line else '' for line in lines)

    def flow(self, value, column):
        rng = self.rng
        separator = rng.choice([', ', ',', ',\n' + ' ' * (max(column, 0) + 2), ' , '])
        if isinstance(value, dict):
            items = [self.flow_item(key) + rng.choice([': ', ': ', ' : ']) + self.flow_item(item)
                     for key, item in value.items()]
            end = rng.choice(['', ' ', ',' if items else ''])
            return '{' + rng.choice(['', ' ']) + separator.join(items) + end + '}'
        items = [self.flow_item(item) for item in value]
        return '[' + separator.join(items) + rng.choice(['', ' ', ',' if items else '']) + ']'

    def flow_item(self, item):
        if isinstance(item, (dict, list)):
            return self.flow(item, 0) if item else ('{}' if isinstance(item, dict) else '[]')
        written = self.scalar(item, 0, True)
        return written if written else '""'


MUTATIONS = [':', ': ', '-', '- ', '#', ' #', "'", '"', '|', '>', '&a ', '*a', '!', '!!str ', '\t', '{', '}',
             '[', ']', ',', '?', '\n', '\n  ', '  ', '---\n', '...\n', '\\', '\\x', '<<: ', '%', 'é', '\r\n']


def mutate(rng, text):
    for _ in range(rng.randint(1, 3)):
        roll = rng.random()
        position = rng.randint(0, len(text))
        if roll < 0.4:
            text = text[:position] + rng.choice(MUTATIONS) + text[position:]
        elif roll < 0.6 and text:
            text = text[:position] + text[position + rng.randint(1, 3):]
        elif roll < 0.8:
            lines = text.split('\n')
            line = rng.randrange(len(lines))
            if rng.random() < 0.6:
                lines[line] = rng.choice(['', ' ', '  ', '-', ' ' * rng.randint(1, 4)]) + lines[line]
            else:
                lines[line] = lines[line].lstrip(' ')
            text = '\n'.join(lines)
        else:
            lines = text.split('\n')
            line = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[line])
            text = '\n'.join(lines)
    return text


def documents(rng, seeds, count):
    texts = []
    for folder in seeds:
        for name in sorted(os.listdir(folder)):
            if name.endswith(('.yaml', '.yml')):
                with open(os.path.join(folder, name), 'rb') as file:
                    texts.append(('seed ' + name, file.read().decode('utf-8', 'surrogateescape')))
    base = [text for _, text in texts]
    while len(texts) < count:
        roll = rng.random()
        if roll < 0.25:
            texts.append(('pyyaml-dump', pyyaml_dump(rng, random_value(rng))))
        elif roll < 0.6:
            texts.append(('mixer', Mixer(rng).document(random_value(rng))))
        else:
            source = rng.choice(base) if rng.random() < 0.5 or len(texts) == len(base) else rng.choice(texts)[1]
            texts.append(('mutated', mutate(rng, source)))
        base.append(texts[-1][1]) if rng.random() < 0.1 else None
    return texts[:count] if count >= len([t for t in texts if t[0].startswith('seed')]) else texts

# MARK: - Comparing


LENIENT = [
    # YAML 1.2 lets a flow mapping's key span lines, and ':' follow a JSON-like key on a later line.
    'could not find expected \':\'', 'expected \',\' or \'}\', but got \':\'',
    # YAML 1.2 lets a plain scalar in a flow collection start with ':' or '?' followed by a non-space, and
    # hold '?' (PyYAML adds that restriction, its scanner says).
    'expected the node content, but found \':\'', 'expected \',\' or \']\', but got \'?\'',
    'expected the node content, but found \'?\'', 'expected \',\' or \'}\', but got \'?\'',
]


def classify(text, mine, theirs, lib):
    if mine[0] == theirs[0] == 'error':
        return 'agree'
    if mine == theirs:
        return 'agree'
    if mine[0] == 'ok' and theirs[0] == 'error' and 'found duplicate anchor' in theirs[1]:
        return 'known: anchor-redefined'
    if mine[0] == 'error' and theirs[0] == 'ok' and "a comment needs a space before its '#'" in mine[1]:
        return 'known: comment-space'
    if mine[0] == 'error' and theirs[0] == 'ok' and "'-' cannot start a value here" in mine[1]:
        return 'known: dash-in-flow'
    if mine[0] == 'ok' and isinstance(mine[1], str) and \
            re.match(r'(\s*(#.*)?\n|%.*\n|---[ \t]*(#.*)?\n)*[ \t]*(--- *)?[|>][-+1-9]*[ \t]*(#.*)?\r?\n', text):
        return 'known: top-level-block-scalar'
    if mine[0] == 'error' and theirs[0] == 'ok' and 'an empty line above has more spaces' in mine[1]:
        return 'known: block-scalar-leading-spaces'
    if mine[0] == 'ok' and theirs[0] == 'error' and re.match(r'(\s*(#.*)?\n)*\.\.\.(\s|$)', text) and \
            "<document end>" in theirs[1]:
        return 'known: leading-document-end'
    if mine[0] == 'ok' and theirs[0] == 'error' and 'while scanning a directive' in theirs[1] and \
            re.search(r'^%(\S*[^A-Za-z0-9\s]|[A-Za-z0-9]*\t)', text, re.M):
        return 'known: directive-name'
    if mine[0] == 'error' and 'TAG directives are not supported' in mine[1] and '%TAG' in text:
        return 'known: tag-directive'
    if re.search(r'[&*][^\s,\[\]{}]*[^A-Za-z0-9_\s,\[\]{}-]', text):
        return 'known: anchor-name'
    if mine[0] == 'ok' and theirs[0] == 'error' and '\t' in text and \
            "found character '\\t' that cannot start any token" in theirs[1]:
        return 'known: tab'
    if lib is not None and lib == mine:
        return 'known: pyyaml-only'
    if mine[0] == 'error' and 'is inside the node it refers to' in mine[1]:
        return 'known: recursive-alias'
    if mine[0] == 'ok' and theirs[0] == 'error' and 'expected URI' in theirs[1] and re.search(r'!(?=[,\]}])', text):
        return 'known: bare-tag-in-flow'
    if re.search(r'[\s\[{,][:?][^\s,\[\]{}]', text) and re.search(r'[\[{]', text):
        return 'known: flow-plain-indicator'
    if mine[0] == 'ok' and theirs[0] == 'error' and any(rule in theirs[1] for rule in LENIENT) and (
            lib is None or lib[0] == 'error'):
        return 'known: both-stricter'
    return 'DISAGREE'


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--reader', required=True)
    parser.add_argument('--documents', type=int, default=5000)
    parser.add_argument('--seeds', nargs='*', default=[])
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--show', type=int, default=10, help='disagreements to print')
    parser.add_argument('--show-known', default='', help='print the documents of this known difference too')
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    texts = documents(rng, [folder for folder in arguments.seeds if os.path.isdir(folder)], arguments.documents)
    counts = {}
    skipped = 0
    compared = []
    for origin, text in texts:
        if any(character in text for character in '\x85\u2028\u2029'):
            skipped += 1
            continue
        compared.append((origin, text))
    results = ours(arguments.reader, [text for _, text in compared])
    shown = 0
    both_ok = 0
    for (origin, text), mine in zip(compared, results):
        theirs = load(text, PY_LOADER)
        lib = load(text, C_LOADER) if C_LOADER and theirs != mine else None
        verdict = classify(text, mine, theirs, lib)
        counts[verdict] = counts.get(verdict, 0) + 1
        both_ok += mine[0] == theirs[0] == 'ok'
        if (verdict == 'DISAGREE' or verdict == 'known: ' + arguments.show_known) and shown < arguments.show:
            shown += 1
            print('--- %s\n%r\n  ours:   %s\n  pyyaml: %s\n  libyaml: %s' % (origin, text, str(mine)[:300],
                                                                            str(theirs)[:300], str(lib)[:300]))
    print('documents: %d compared (%d read by both, %d refused by both), %d skipped (YAML 1.1 line breaks)'
          % (len(compared), both_ok, counts.get('agree', 0) - both_ok, skipped))
    for verdict in sorted(counts):
        print('  %-24s %d' % (verdict, counts[verdict]))
    sys.exit(1 if counts.get('DISAGREE') else 0)


if __name__ == '__main__':
    main()
