"""The inventory of typeformer's public surface, docs/inventory.md, read from the headers by Clang.

Every function, operator, class template and alias template a user can name (all of
`typeformer::` outside the `detail` namespaces) is a row, found by parsing every header under
include/typeformer with libclang (Debian's python3-clang-14), not by matching text. For each
parameter whose type carries a dimension, a vocabulary, a model or an architecture (its type is a
template parameter, or a class template over one) the row names the compile-fail cases that make
a mistake with it: a case says which with a line

    // covers: forward(ws model), sgd_step(grads)    entry point(typed parameter ...), ...
    // covers: q8(Model)                              a class or alias template's parameter
    // covers: nn::forward[mlp](X)                    nn::forward of the nn::mlp block

Names below typeformer:: are qualified with the rest of their namespace (`nn::forward`); a name
with rows for several blocks or layers takes the block in brackets (the template of its first
parameter), or else is the row whose fallback the case's `// expect:` line names. The row also
names the declared-only form a mis-shaped call ends in (`in::...`, shape_error.hpp). The
namespaces `detail` and `*_impl` are not public.

  inventory.py --update        rewrite docs/inventory.md
  inventory.py --check         exit 1 if docs/inventory.md differs from the headers and cases, if
                               an entry point with typed parameters has no declared fallback, if a
                               typed parameter has no case (EXCUSED rows aside), or if a case
                               covers what is not there

A row is excused from a rule only by EXCUSED below, with the reason, which the page prints. The
CTest test compile_fail.inventory runs --check, so a new entry point cannot land without its row,
its fallback and its cases.
"""
import argparse
import collections
import difflib
import os
import pathlib
import re
import sys
import tempfile

import clang.cindex as ci

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
INCLUDE = ROOT / "include"
PAGE = ROOT / "docs" / "inventory.md"
LIBCLANG = "/usr/lib/llvm-14/lib/libclang.so.1"

K = ci.CursorKind
FUNCTIONS = {K.FUNCTION_DECL, K.FUNCTION_TEMPLATE}
MEMBERS = {K.CXX_METHOD, K.CONSTRUCTOR, K.CONVERSION_FUNCTION, K.FUNCTION_TEMPLATE}
CLASSES = {K.CLASS_TEMPLATE, K.CLASS_DECL, K.STRUCT_DECL}
TEMPLATE_PARAMS = {K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER,
                   K.TEMPLATE_TEMPLATE_PARAMETER}

# Rows excused from a rule, with the reason the page prints:
#   entry point (or namespace::) -> (rule, reason): "fallback", no declared-only form and so no
#   case is needed (a conversion, a pass-through, a forwarder to typed kernels).
EXCUSED = {
    # Reviewed for issue 28: each reason says why no case passes the parameter wrongly, and what a
    # wrong one does today where it is not nothing (measured with GCC 12 and Clang 14).
    "as_view": ("fallback", "returns the view of any tensor or view and passes anything else "
                            "through unchanged (transpose tags): it accepts every argument, so no "
                            "call is mis-shaped; what it returns is checked where it is used"),
    "token_span::token_span<V>": ("fallback", "a conversion at a boundary, with no declared-only "
                                              "form: from untyped ids it checks each id < N_V at "
                                              "run time, and a typed sequence of another "
                                              "vocabulary stops at its own constructor's "
                                              "shape_error<in::token_span, ...>"),
    "input_tokens::input_tokens<V>": ("fallback", "a conversion with no declared-only form: a "
                                                  "function that takes tokens_for<Model> reports "
                                                  "tokens_of / model_N_V (each has its case), and "
                                                  "input_tokens<V> of another vocabulary named "
                                                  "directly stops at its explicit constructor's "
                                                  "shape_error<in::input_tokens, ...>"),
    "kernels::backend::": ("fallback", "the untyped layer: raw pointers and sizes, forwarded to "
                                       "kernels::scalar or kernels::simd; the typed kernels above "
                                       "it check shapes and are what users call"),
    "tokenize::bound_tokenizer::bound_tokenizer<V, Tokenizer>": (
        "fallback", "made by for_model (above), which checks a typed vocabulary (byte_level's) "
                    "at compile time and a run-time one (BPE's) at run time"),
    # templates a model's type names for its users, whose calls are checked above
    "tokens_for": ("fallback", "the input_tokens of a model's functions, which report tokens_of; "
                               "tokens_for<a config> is 'no type named traits' (9 lines): an "
                               "alias in the functions' signatures, where a checking form would "
                               "make overload resolution's substitution failures hard errors"),
    "encoded_context": ("fallback", "made by encode; decoding with another model's is Z_of "
                                    "(decode_with_Z_of_other_model)"),
    "output_view": ("fallback", "what forward and logits return (auto); output_view<a config> "
                                "is 'no type named value_type' (9 lines): an alias, as "
                                "tokens_for is"),
    "owned_output": ("fallback", "what forward(model, x) returns on a host (auto)"),
    "transformer_decoder": ("fallback", "an EDTransformer's member, of the model's config "
                                        "(checked by EDTransformer); another argument is its "
                                        "in::transformer_decoder, as transformer_encoder's is"),
    "worker_buffers": ("fallback", "what train_loop hands a gradient function"),
    "adam_state": ("fallback", "two structs of the model's type (m, v), for any type: adam_step "
                               "reports adam_state_of<...> against model<...> "
                               "(adam_state_of_other_model)"),
    "deploy::exported_as": ("fallback", "declared only, for sizeof: it is the check, and a model "
                                        "of another signature is its in::exported_weights"),
    "deploy::use_buffers": ("fallback", "a deployment's table of buffers; deploy::deployment "
                                        "reports in::deployment (deploy_adam_plan_on_nrf52840)"),
}


def excuse(name):
    """The (rule, reason) that excuses a row, by its name or a namespace prefix of it."""
    if name in EXCUSED:
        return EXCUSED[name]
    return next((v for k, v in EXCUSED.items() if k.endswith("::") and name.startswith(k)),
                (None, None))


def parse_headers():
    """The translation unit of every public header, parsed once (function bodies skipped)."""
    headers = sorted(p.relative_to(INCLUDE).as_posix() for p in (INCLUDE / "typeformer").rglob("*.hpp"))
    src = "".join(f"#include <{h}>\n" for h in headers)
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as f:
        f.write(src)
        name = f.name
    try:
        ci.Config.set_library_file(LIBCLANG)
        tu = ci.Index.create().parse(
            name, args=["-x", "c++", "-std=c++20", f"-I{INCLUDE}", "-DTYPEFORMER_INVENTORY=1"],
            options=ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES)
    finally:
        os.unlink(name)
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        sys.exit("inventory.py: the headers do not parse together:\n" +
                 "\n".join(str(d) for d in errors[:20]))
    return tu


def header_of(cursor):
    f = cursor.location.file
    if f is None:
        return None
    p = pathlib.Path(os.path.normpath(f.name))
    try:
        return p.relative_to(INCLUDE / "typeformer").as_posix()
    except ValueError:
        return None


def template_params(cursor):
    return [c.spelling for c in cursor.get_children() if c.kind in TEMPLATE_PARAMS and c.spelling]


def type_params(cursor):
    return [c.spelling for c in cursor.get_children()
            if c.kind in (K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_TEMPLATE_PARAMETER) and c.spelling]


_sources = {}
_macros = None


def macro_definition(name):
    """The text of `#define name(...)` in the headers, its continuation lines joined."""
    global _macros
    if _macros is None:
        _macros = {}
        for h in (INCLUDE / "typeformer").rglob("*.hpp"):
            text = h.read_text(errors="replace").replace("\\\n", "\n")
            for m in re.finditer(r"^#define (\w+)\(.*?(?=^(?!\s)|\Z)", text, re.M | re.S):
                _macros[m.group(1)] = m.group(0)
    return _macros.get(name)


def declaration_text(cursor):
    """The declaration's text from its start to its `;` or the end of its body (libclang's own
    extent stops short of a trailing return type)."""
    name = cursor.location.file.name
    if name not in _sources:
        _sources[name] = pathlib.Path(name).read_bytes()
    src = _sources[name]
    i = cursor.extent.start.offset
    macro = re.match(rb"([A-Z][A-Z0-9_]+)\(([^)]*)\)", src[i:i + 200])
    if macro:  # declared by a macro: its definition, with the invocation's arguments
        body = macro_definition(macro.group(1).decode())
        if body is not None:
            params = re.match(r"#define \w+\(([^)]*)\)", body).group(1).split(",")
            args = macro.group(2).decode().split(",")
            for p, a in zip(params, args):
                p, a = p.strip(), a.strip()
                if p == "...":
                    break  # (the variadic rest is not needed to find the fallback's tag)
                body = re.sub(r"\b" + p + r"\s*##\s*", a, body)
                body = re.sub(r"\b" + p + r"\b", a, body)
            return body
    depth = 0
    requires_body = []  # the depths at which a requires-expression's { } opened
    for j in range(i, len(src)):
        ch = src[j:j + 1]
        if ch == b"{" and re.search(rb"\brequires\s*(\([^()]*\))?\s*$", src[i:j]):
            requires_body.append(depth)
            depth += 1
        elif ch in b"({[":
            depth += 1
        elif ch in b")}]":
            depth -= 1
            if ch == b"}" and requires_body and requires_body[-1] == depth:
                requires_body.pop()
            elif depth == 0 and ch == b"}":
                return src[i:j + 1].decode(errors="replace")  # a body
        elif ch == b";" and depth == 0:
            return src[i:j + 1].decode(errors="replace")
    return src[i:].decode(errors="replace")


# shape_error<in::X, ...> or shape_error_of<in::X>(...), in:: qualified or not
TAG = r"shape_error(?:_of)?\s*<\s*(?:::\s*)?(?:typeformer\s*::\s*)?in\s*::\s*(\w+)"


def fallback_tag(cursor):
    """in::X if this is a declared-only form: no body, and a shape_error<in::X, ...> for a result
    (or the result of ::typeformer::X(...), a function with its own fallback)."""
    def tag_of(decl):
        m = re.search(TAG, decl) or re.search(r"->\s*decltype\(\s*::typeformer::(\w+)\(", decl)
        return m.group(1) if m else None
    text = declaration_text(cursor)
    if text.startswith("#define"):  # a macro's declarations: a declared-only one of this name
        for decl in re.split(r"\n\s*template\s*<", text):
            decl = decl.split("{", 1)[0] if "{" in decl.split(";", 1)[0] else decl
            if re.search(r"\b" + re.escape(cursor.spelling) + r"\s*\(", decl) and tag_of(decl):
                return tag_of(decl)
        return None
    return tag_of(text) if text.endswith(";") else None


def is_typed(type_spelling, tparams, shaped):
    """Whether a parameter's type carries a dimension, vocabulary, model or architecture: it is a
    template parameter that stands for a tensor, block, model or sequence (not a scalar, generator,
    callback or mask: NOT_SHAPES), or one of typeformer's templates over shapes (`shaped`:
    kv_cache<Model>, tokens_for<Model>, mat<T, R, C>, ...)."""
    t = re.sub(r"\b(const|volatile|typename)\b|[&*]|\.\.\.", " ", type_spelling)
    t = re.sub(r"\s+", " ", t).strip()
    if t in tparams:
        return t not in NOT_SHAPES
    m = re.fullmatch(r"(?:[\w:]*::)?(\w+)\s*<(.*)>", t)
    if not m:
        return False
    direct = {a.strip() for a in m.group(2).split(",")}  # std::array<Part, Hn>: an array of them
    return m.group(1) in shaped or bool(direct & (set(tparams) - NOT_SHAPES))


# A parameter of type value_of<X> (or type_identity_t of it) is a number of another argument's
# element type, in a non-deduced context: any arithmetic value converts, so no call passes it
# mis-shaped. The row says so, naming X.
SCALAR_OF = re.compile(r"value_of<\s*(\w+)\s*>")


# Template parameters by these names are scalars, generators, callbacks, masks or names: what
# they stand for has no shape (and a wrong one is an ordinary C++ error at the call).
NOT_SHAPES = {"T", "Scalar", "Eps", "Scale", "Gen", "F", "Observer", "OnToken", "Mask", "Name",
              "Accessor", "Write", "Member", "Element"}
SCALAR_PARAMS = NOT_SHAPES


# A class or alias template's parameter by one of these names is a model, its config or a block:
# an argument a user picks (kv_cache<Model>, DTransformer<T, cfg>) and can pick wrongly. Its other
# parameters are dimensions and scalars, checked where the type is used.
MODEL_PARAMS = {"Model", "cfg", "Cfg", "Mlp", "Attn", "Block"}


class Row:
    def __init__(self, name, kind, header):
        self.name = name          # below typeformer::, e.g. nn::forward, mat::operator=
        self.kind = kind          # function, member, class template, alias template, class
        self.header = header
        self.forms = 0            # accepted forms (declarations that are not a fallback)
        self.fallbacks = set()    # in:: tags of its declared-only forms
        self.params = collections.OrderedDict()   # typed parameter -> set of cases
        self.family = ""          # the template of its first parameter, for a block's function
        self.headers = set()      # where its accepted forms are
        self.fallback_params = collections.OrderedDict()  # a fallback's, for a row of no forms
        self.fallback_names = {}  # position -> a fallback's name for it (an unnamed `#i` is that)
        self.scalars = collections.OrderedDict()  # parameter -> why it has no shape of its own

    def typed(self):
        return bool(self.params)


def collect(tu):
    """The rows, one per name and header (nn::forward of nn/mlp.hpp is not that of
    nn/attention.hpp), in the headers' order."""
    rows = collections.OrderedDict()
    shaped = set()  # typeformer's class and alias templates with a parameter that is not a scalar

    blocks = set()  # the blocks and layers (nn::mlp, gpt_layer, ...): each has its own forward

    def scan(c, ns=""):
        for ch in c.get_children():
            if ch.kind == K.NAMESPACE:
                scan(ch, ch.spelling)
            elif ch.kind in (K.CLASS_TEMPLATE, K.TYPE_ALIAS_TEMPLATE_DECL):
                if set(type_params(ch)) - SCALAR_PARAMS:
                    shaped.add(ch.spelling)
                if ns == "nn" or ch.spelling.endswith("_layer") or \
                        ch.spelling == "final_projection":
                    blocks.add(ch.spelling)

    def row(name, kind, header, family=""):
        key = (name, family)
        if key not in rows:
            rows[key] = Row(name, kind, header)
            rows[key].family = family
        return rows[key]

    def family_of(c):
        if c.spelling not in ("forward", "backward", "probabilities"):
            return ""
        """What the first parameter is: a block's or layer's template (nn::forward of an mlp is
        not that of an MHAttention), or "" for a model, a generic argument or anything else."""
        first = next((ch for ch in c.get_children() if ch.kind == K.PARM_DECL), None)
        if first is None:
            return ""
        t = re.sub(r"\b(const|volatile|typename)\b|[&*]", " ", first.type.spelling).strip()
        m = re.fullmatch(r"(?:[\w:]*::)?(\w+)\s*<.*>", t)
        return m.group(1) if m and m.group(1) in blocks else ""

    def function(c, prefix, outer_tparams, kind, header=None):
        r = row(prefix + c.spelling, kind, header or header_of(c), family_of(c))
        tag = fallback_tag(c)
        if tag:
            r.fallbacks.add(tag)
            tparams = outer_tparams + type_params(c)
            for i, p in enumerate(ch for ch in c.get_children() if ch.kind == K.PARM_DECL):
                if "..." not in p.type.spelling and is_typed(p.type.spelling, tparams, shaped):
                    r.fallback_params.setdefault(p.spelling or f"#{i + 1}", set())
                if p.spelling and "..." not in p.type.spelling:
                    r.fallback_names.setdefault(i + 1, p.spelling)
            return r
        if r.forms == 0:
            r.header = header or header_of(c)  # where its first accepted form is
        r.headers.add(header or header_of(c))
        r.forms += 1
        tparams = outer_tparams + type_params(c)
        spellings = []
        for i, p in enumerate(ch for ch in c.get_children() if ch.kind == K.PARM_DECL):
            spellings.append(p.type.spelling)
            scalar = SCALAR_OF.search(p.type.spelling)
            if scalar:  # the element type of another argument: a number, no shape of its own
                r.scalars.setdefault(p.spelling or f"#{i + 1}", scalar.group(1))
            elif is_typed(p.type.spelling, tparams, shaped):
                r.params.setdefault(p.spelling or f"#{i + 1}", set())
        # A model named only as a template argument (params_from<Model>(flat), signature_of<Model>())
        # is a typed parameter too: the user writes it, and can write the wrong one.
        for t in type_params(c):
            if t in MODEL_PARAMS and not any(re.search(rf"\b{t}\b", s) for s in spellings):
                r.params.setdefault(t, set())
        return r

    def type_row(c, name, kind):
        r = row(name, kind, header_of(c))
        r.forms += 1
        for p in type_params(c):
            if p in MODEL_PARAMS and r.header != "shape_error.hpp":  # (the errors' vocabulary)
                r.params.setdefault(p, set())
        return r

    def klass(c, prefix):
        name = prefix + c.spelling
        type_row(c, name, "class template" if c.kind == K.CLASS_TEMPLATE else "class")
        tparams = type_params(c)
        public = c.kind != K.CLASS_DECL  # struct: public until said otherwise
        for ch in c.get_children():
            if ch.kind == K.CXX_ACCESS_SPEC_DECL:
                public = ch.access_specifier == ci.AccessSpecifier.PUBLIC
            elif public and ch.kind in MEMBERS:
                m = function(ch, name + "::", tparams, "member", header_of(c))
                if not m.typed() and not m.fallbacks:
                    del rows[(m.name, m.family)]  # an untyped member is part of its class's row

    def walk(c, prefix):
        for ch in c.get_children():
            if header_of(ch) is None:
                continue
            if ch.kind == K.NAMESPACE:
                if ch.spelling != "detail" and not ch.spelling.endswith("_impl"):
                    inline = ch.spelling == "typed" or not ch.spelling  # the accepted forms
                    walk(ch, prefix if inline else prefix + ch.spelling + "::")
            elif ch.kind in FUNCTIONS:
                function(ch, prefix, [], "function")
            elif ch.kind == K.CLASS_TEMPLATE or ch.kind in CLASSES and ch.is_definition():
                if ch.spelling:
                    klass(ch, prefix)
            elif ch.kind == K.TYPE_ALIAS_TEMPLATE_DECL:
                type_row(ch, prefix + ch.spelling, "alias template")

    typeformer = [ch for ch in tu.cursor.get_children()
                  if ch.kind == K.NAMESPACE and ch.spelling == "typeformer" and header_of(ch)]
    for ns in typeformer:
        scan(ns)
    for ns in typeformer:
        walk(ns, "")
    for r in rows.values():  # (mat::operator=: the accepted form is the implicit copy)
        if not r.params:
            r.params = r.fallback_params
        # An unnamed parameter of an accepted form (`const tied_unembedding<T, V, E>&`) is the
        # one the fallback names at its position, when the fallback names it (p, pe_grads).
        named = collections.OrderedDict()
        for p, cs in r.params.items():
            m = re.fullmatch(r"#(\d+)", p)
            named.setdefault(r.fallback_names.get(int(m.group(1)), p) if m else p, set()).update(cs)
        r.params = named
        for p in list(r.scalars):
            if p in r.params:  # typed in another form: a shape there, checked as such
                del r.scalars[p]
    return rows


def read_cases():
    """Each case's `// covers:` entries and the text of its expect / first-error lines."""
    cases = {}
    for p in sorted(HERE.glob("*.cpp")):
        covers, said = [], []
        for line in p.read_text().splitlines():
            if line.startswith("// covers:"):
                covers += [e.strip() for e in
                           re.findall(r"[^,(]+(?:\([^)]*\))?", line[len("// covers:"):]) if e.strip()]
            elif re.match(r"// (clang-)?(expect|first-error):", line):
                said.append(line)
        cases[p.stem] = (covers, " ".join(said))
    return cases


def attach(rows, cases):
    """Each case's entries onto their rows. A name with rows in several headers (nn::forward) is
    the row whose fallback the case's expect / first-error lines name."""
    problems = []
    by_name = collections.defaultdict(list)
    for r in rows.values():
        by_name[r.name].append(r)
    for case, (covers, said) in cases.items():
        for entry in covers:
            m = re.fullmatch(r"([^\s(\[]+)(?:\[(\w+)\])?\s*(?:\((.*)\))?", entry)
            if not m:
                problems.append(f"{case}.cpp: `// covers: {entry}` is not name[family](parameters)")
                continue
            name, family, params = m.group(1), m.group(2), (m.group(3) or "").split()
            candidates = by_name.get(name, [])
            if family:
                candidates = [r for r in candidates if r.family == family]
            if len(candidates) > 1:
                candidates = [r for r in candidates if any(f"in::{t}" in said for t in r.fallbacks)]
            if len(candidates) != 1:
                problems.append(f"{case}.cpp covers `{name}`, which names "
                                f"{'no' if not candidates else 'more than one'} row of the inventory")
                continue
            r = candidates[0]
            if not params:
                problems.append(f"{case}.cpp covers `{name}` without naming its parameter")
            for p in params:
                if p not in r.params:
                    problems.append(f"{case}.cpp covers `{name}({p})`, but {p} is not a typed "
                                    f"parameter of {name} ({', '.join(r.params) or 'none'})")
                else:
                    r.params[p].add(case)
            if r.fallbacks and not any(f"in::{t}" in said for t in r.fallbacks):
                problems.append(f"{case}.cpp covers `{name}`, whose mis-shaped calls report "
                                f"{' or '.join('in::' + t for t in sorted(r.fallbacks))}, but its "
                                f"expect / first-error lines name none of them")
    return problems


def gaps(rows):
    """What the rules still miss: an entry point with typed parameters and no declared fallback,
    one with no compile-fail case at all, and a typed parameter no case passes wrongly (EXCUSED
    rows aside, whose reason the page prints)."""
    no_fallback, no_case, uncovered = [], [], []
    for r in rows.values():
        if not r.typed():
            continue
        rule = excuse(r.name)[0]
        if r.kind in ("function", "member") and not r.fallbacks and rule != "fallback":
            no_fallback.append(r)
        if rule is None and not any(r.params.values()):
            no_case.append(r)
        if rule is None:
            uncovered += [(r, p) for p, cs in r.params.items() if not cs]
    return no_fallback, no_case, uncovered


def page(rows):
    by_header = collections.OrderedDict()
    for r in sorted(rows.values(), key=lambda r: (r.header, r.name)):
        by_header.setdefault(r.header, []).append(r)
    typed = [r for r in rows.values() if r.typed()]
    n_params = sum(len(r.params) for r in typed)
    n_covered = sum(1 for r in typed for cs in r.params.values() if cs)
    n_cases = len({c for r in typed for cs in r.params.values() for c in cs})
    n_excused = sum(1 for r in typed if excuse(r.name)[0])
    n_scalars = sum(len(r.scalars) for r in typed)
    out = [INTRO,
           f"{len(rows)} entry points in {len(by_header)} headers. {len(typed)} take typed "
           f"arguments: {len(typed) - n_excused} have a declared fallback and compile-fail cases "
           f"({n_cases} cases in all), {n_excused} are excused (the reason is in their row); "
           f"{n_covered} of their {n_params} typed parameters are passed wrongly by a case. "
           f"{n_scalars} further parameters are numbers of another argument's element type "
           f"(`value_of<X>`, read from their declared type), which no call can pass mis-shaped; "
           f"their rows say so.\n"]
    for header, rs in by_header.items():
        out.append(f"## [{header}](../include/typeformer/{header})\n")
        typed = [r for r in rs if r.typed()]
        plain = [r for r in rs if not r.typed()]
        if typed:
            out.append("| entry point | kind | a mis-shaped call reports | typed parameter: cases |")
            out.append("|---|---|---|---|")
            for r in typed:
                reports = ", ".join(f"`in::{t}`" for t in sorted(r.fallbacks)) or "—"
                if excuse(r.name)[0]:
                    reports += f" ({excuse(r.name)[1]})"
                params = "<br>".join(
                    f"`{p}`: " + (", ".join(f"[{c}](../tests/compile_fail/{c}.cpp)"
                                            for c in sorted(cs)) or "—")
                    for p, cs in r.params.items())
                params += "".join(f"<br>`{p}`: a number, X's element type (`value_of<{x}>`): "
                                  f"nothing to mis-shape" .replace("X's", f"{x}'s")
                                  for p, x in r.scalars.items())
                of = f" of `{r.family}`" if r.family else ""
                also = sorted(r.headers - {r.header})
                kind = r.kind + (" (also in " + ", ".join(also) + ")" if also else "")
                out.append(f"| `{r.name}`{of} | {kind} | {reports} | {params} |")
            out.append("")
        if plain:
            out.append("No typed parameter: " + ", ".join(f"`{r.name}`" for r in plain) + ".\n")
    no_fallback, no_case, uncovered = gaps(rows)
    out.append("## Gaps\n")
    out.append("Entry points with typed parameters and no declared fallback: " +
               (", ".join(f"`{r.name}` ({r.header})" for r in no_fallback) or "none") + ".\n")
    out.append("Entry points with typed parameters and no compile-fail case: " +
               (", ".join(f"`{r.name}` ({r.header})" for r in no_case) or "none") + ".\n")
    out.append("Typed parameters that no compile-fail case passes wrongly: " +
               (", ".join(f"`{r.name}({p})` ({r.header})" for r, p in uncovered) or "none") + ".\n")
    return "\n".join(out).rstrip("\n") + "\n"


INTRO = """\
# The public surface, and what proves each entry point rejects a mis-shaped call

Every function, operator, class template and alias template of `typeformer::` outside the
`detail` (and `*_impl`) namespaces, one row per name (overloads together; a block's or layer's
`forward` and `backward` a row per block), as Clang reads the headers
([tests/compile_fail/inventory.py](../tests/compile_fail/inventory.py); generated, and CTest
`compile_fail.inventory` fails when this page is not what the headers and cases say now, so a
new entry point cannot land without its row). A parameter is *typed* when its type carries a
dimension, a vocabulary, a model or an architecture: a template parameter standing for a tensor,
block, model or sequence, or one of typeformer's templates over them (`kv_cache<Model>`,
`tokens_for<Model>`, `mat<T, R, C>`); a class template's, when it is the model, its config or a
block. For each the row names the compile-fail cases of [tests/compile_fail](../tests/compile_fail)
that pass it wrongly (a case's `// covers:` line; — where none does yet), and the declared-only
form a mistake ends in (`in::...`, [shape_error.hpp](../include/typeformer/shape_error.hpp)).
The last section lists what is still missing: CTest fails while it lists anything.
"""


def main():
    ap = argparse.ArgumentParser()
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--update", action="store_true")
    g.add_argument("--check", action="store_true")
    g.add_argument("--todo", action="store_true", help="list what the rules still miss")
    a = ap.parse_args()
    rows = collect(parse_headers())
    problems = attach(rows, read_cases())
    text = page(rows)
    if a.update:
        PAGE.write_text(text)
    if a.todo:
        no_fallback, no_case, uncovered = gaps(rows)
        print("\n".join(problems + [f"no fallback: {r.name} ({r.header})" for r in no_fallback] +
                        [f"no case: {r.name} ({r.header})" for r in no_case] +
                        [f"no case: {r.name}({p}) ({r.header})" for r, p in uncovered]))
        return
    no_fallback, no_case, uncovered = gaps(rows)
    problems += [f"{r.name} ({r.header}) takes typed arguments but has no declared fallback "
                 f"(a form returning shape_error<in::..., ...>)" for r in no_fallback]
    problems += [f"{r.name} ({r.header}) takes typed arguments but no compile-fail case covers "
                 f"it (a case's // covers: line)" for r in no_case]
    problems += [f"{r.name}({p}) ({r.header}): no compile-fail case passes this typed parameter "
                 f"wrongly (a case's // covers: {r.name}({p}))" for r, p in uncovered]
    if a.check:
        old = PAGE.read_text() if PAGE.exists() else ""
        if old != text:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), str(PAGE), "the headers now"))
            problems.insert(0, f"{PAGE} is not the headers' inventory: run "
                               f"tests/compile_fail/inventory.py --update and review the change")
    if problems:
        sys.exit("inventory.py:\n  " + "\n  ".join(problems))


if __name__ == "__main__":
    main()
