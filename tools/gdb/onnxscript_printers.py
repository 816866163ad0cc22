# gdb pretty printers for ONNX Script for C++ (docs/debugging.md).
#
# Prints ir::Tensor, eval::RuntimeValue, onnxscript::Value, ir::Node,
# ir::Value, ir::Type, ir::Shape and ir::Dims as one line each, e.g.
#   Tensor float[2,3] = {1, 2, 3, 4, 5, 6}
#   Value traced float[N,3] 'X'
#   ir::Node Relu domain="" name="" (X) -> (Y)
#
# libonnxscript_ir carries this file in its .debug_gdb_scripts section
# (src/ir/gdb_printers.cc), so gdb loads it with the library once the
# library's directory is an auto-load safe path. It can also be loaded by
# hand: `source PREFIX/share/onnxscript/gdb/onnxscript_printers.py`.
#
# The printers read memory directly and never call into the program, so they
# work on core files and in frames where calling a function is impossible.
# Every read is guarded: on unreadable or garbage memory a printer prints a
# short description of what it could not read instead of raising, and every
# loop is bounded.

import struct

import gdb
import gdb.printing

# Elements shown per tensor before "...".
ONNXSCRIPT_MAX_ELEMENTS = 10
# Items shown per sequence before "...".
_OX_MAX_ITEMS = 4
# Characters shown per string element.
_OX_MAX_CHARS = 40
# Nesting of sequences and optionals printed before "...".
_OX_MAX_DEPTH = 3
# Ranks above this are taken for garbage.
_OX_MAX_RANK = 64

# ir::DataType value -> (name as data_type_name() spells it, bytes per element
# or None for packed 4-bit and 2-bit and string elements).
_OX_DTYPES = {
    0: ("undefined", None),
    1: ("float", 4),
    2: ("uint8", 1),
    3: ("int8", 1),
    4: ("uint16", 2),
    5: ("int16", 2),
    6: ("int32", 4),
    7: ("int64", 8),
    8: ("string", None),
    9: ("bool", 1),
    10: ("float16", 2),
    11: ("double", 8),
    12: ("uint32", 4),
    13: ("uint64", 8),
    14: ("complex64", 8),
    15: ("complex128", 16),
    16: ("bfloat16", 2),
    17: ("float8e4m3fn", 1),
    18: ("float8e4m3fnuz", 1),
    19: ("float8e5m2", 1),
    20: ("float8e5m2fnuz", 1),
    21: ("uint4", None),
    22: ("int4", None),
    23: ("float4e2m1", None),
    24: ("float8e8m0", 1),
    25: ("uint2", None),
    26: ("int2", None),
}

# struct formats of the fixed-width integer types, little-endian.
_OX_INT_FORMATS = {2: "<B", 3: "<b", 4: "<H", 5: "<h", 6: "<i", 7: "<q", 12: "<I", 13: "<Q"}


class _OxUnreadable(Exception):
    """Raised inside the printers when memory cannot be read or makes no sense."""


def _ox_read(address, size):
    """`size` bytes of inferior memory at `address`, as bytes."""
    if address == 0:
        raise _OxUnreadable("null pointer")
    return bytes(gdb.selected_inferior().read_memory(address, size))


def _ox_int(value):
    return int(value)


def _ox_address(pointer):
    return int(pointer.cast(gdb.lookup_type("unsigned long")))


def _ox_std_string(value):
    """A std::string (libstdc++ layout: pointer, then length), shortened."""
    base = _ox_address(value.address)
    pointer, length = struct.unpack("<QQ", _ox_read(base, 16))
    if length > (1 << 40):
        raise _OxUnreadable("string length %d" % length)
    return _ox_string_at(pointer, length)


def _ox_string_at(pointer, length):
    shown = min(length, _OX_MAX_CHARS)
    text = _ox_read(pointer, shown).decode("utf-8", "backslashreplace") if shown else ""
    return text + ("..." if length > shown else "")


def _ox_quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _ox_shared_ptr(value):
    """The pointer a std::shared_ptr holds (possibly null)."""
    return value["_M_ptr"]


def _ox_optional(value):
    """The contained value of a std::optional, or None when it is empty."""
    payload = value["_M_payload"]
    if not bool(payload["_M_engaged"]):
        return None
    return payload["_M_payload"]["_M_value"]


def _ox_float(x, digits):
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return "%.*g" % (digits, x)


def _ox_minifloat(bits, exp_bits, man_bits, bias, style):
    """Decodes a float8 or float4 bit pattern. `style`: "ieee" (inf and NaN
    at the top exponent), "fn" (no inf; all ones is NaN) or "fnuz" (no inf,
    no -0; the -0 pattern is NaN) or "finite" (no inf, no NaN)."""
    width = 1 + exp_bits + man_bits
    sign = (bits >> (width - 1)) & 1
    exponent = (bits >> man_bits) & ((1 << exp_bits) - 1)
    mantissa = bits & ((1 << man_bits) - 1)
    top = (1 << exp_bits) - 1
    if style == "fnuz" and bits == 1 << (width - 1):
        return float("nan")
    if style == "fn" and exponent == top and mantissa == (1 << man_bits) - 1:
        return float("nan")
    if style == "ieee" and exponent == top:
        return float("nan") if mantissa else (float("-inf") if sign else float("inf"))
    if exponent == 0:
        magnitude = (mantissa / (1 << man_bits)) * 2.0 ** (1 - bias)
    else:
        magnitude = (1 + mantissa / (1 << man_bits)) * 2.0 ** (exponent - bias)
    return -magnitude if sign else magnitude


# float8 and float4 types: dtype -> (exponent bits, mantissa bits, bias, style).
_OX_MINIFLOATS = {
    17: (4, 3, 7, "fn"),
    18: (4, 3, 8, "fnuz"),
    19: (5, 2, 15, "ieee"),
    20: (5, 2, 16, "fnuz"),
    23: (2, 1, 1, "finite"),
}


def _ox_elements(dtype, address, count):
    """The first `count` elements at `address` as strings."""
    if count <= 0:
        return []
    if dtype == 1:
        return [_ox_float(x, 7) for x in struct.unpack("<%df" % count, _ox_read(address, 4 * count))]
    if dtype == 11:
        return [_ox_float(x, 15) for x in struct.unpack("<%dd" % count, _ox_read(address, 8 * count))]
    if dtype == 10:
        return [_ox_float(x, 5) for x in struct.unpack("<%de" % count, _ox_read(address, 2 * count))]
    if dtype == 16:
        halves = struct.unpack("<%dH" % count, _ox_read(address, 2 * count))
        return [_ox_float(struct.unpack("<f", struct.pack("<I", h << 16))[0], 4) for h in halves]
    if dtype == 9:
        return ["true" if b else "false" for b in _ox_read(address, count)]
    if dtype in _OX_INT_FORMATS:
        fmt = _OX_INT_FORMATS[dtype]
        size = struct.calcsize(fmt)
        data = _ox_read(address, size * count)
        return [str(struct.unpack_from(fmt, data, i * size)[0]) for i in range(count)]
    if dtype in (14, 15):
        code, digits, size = ("f", 7, 8) if dtype == 14 else ("d", 15, 16)
        parts = struct.unpack("<%d%s" % (2 * count, code), _ox_read(address, size * count))
        out = []
        for i in range(count):
            re, im = parts[2 * i], parts[2 * i + 1]
            sign = "-" if im < 0 or (im == 0 and str(im).startswith("-")) else "+"
            out.append("%s%s%sj" % (_ox_float(re, digits), sign, _ox_float(abs(im), digits)))
        return out
    if dtype in (17, 18, 19, 20):
        params = _OX_MINIFLOATS[dtype]
        return [_ox_float(_ox_minifloat(b, *params), 4) for b in _ox_read(address, count)]
    if dtype == 24:
        # float8e8m0: 2^(bits - 127), no sign, 0xFF is NaN.
        return [_ox_float(float("nan") if b == 0xFF else 2.0 ** (b - 127), 4)
                for b in _ox_read(address, count)]
    if dtype in (21, 22, 23, 25, 26):
        # Packed two (4-bit) or four (2-bit) per byte, first element in the lowest bits.
        bits = 2 if dtype in (25, 26) else 4
        per_byte = 8 // bits
        data = _ox_read(address, (count + per_byte - 1) // per_byte)
        out = []
        for i in range(count):
            v = (data[i // per_byte] >> (bits * (i % per_byte))) & ((1 << bits) - 1)
            if dtype in (21, 25):
                out.append(str(v))
            elif dtype in (22, 26):
                out.append(str(v - (1 << bits) if v >> (bits - 1) else v))
            else:
                out.append(_ox_float(_ox_minifloat(v, *_OX_MINIFLOATS[23]), 4))
        return out
    if dtype == 8:
        # std::string objects (libstdc++: 32 bytes, pointer then length).
        out = []
        for i in range(count):
            pointer, length = struct.unpack("<QQ", _ox_read(address + 32 * i, 16))
            if length > (1 << 40):
                raise _OxUnreadable("string length %d" % length)
            out.append(_ox_quote(_ox_string_at(pointer, length)))
        return out
    return None


def _ox_dtype_name(dtype):
    entry = _OX_DTYPES.get(dtype)
    return entry[0] if entry else "dtype(%d)" % dtype


def _ox_dims(dims):
    """An ir::Dims as a list of ints."""
    size = _ox_int(dims["size_"])
    capacity = _ox_int(dims["capacity_"])
    if size > _OX_MAX_RANK:
        raise _OxUnreadable("rank %d" % size)
    if size == 0:
        return []
    if capacity > 4:
        address = _ox_address(dims["heap_"])
    else:
        address = _ox_address(dims["inline_"].address)
    return list(struct.unpack("<%dq" % size, _ox_read(address, 8 * size)))


def _ox_dims_text(dims):
    return "[" + ",".join(str(d) for d in dims) + "]"


def _ox_tensor_text(tensor, with_elements=True):
    """'float[2,3] = {1, 2, ...}' for an ir::Tensor."""
    dtype = _ox_int(tensor["dtype_"])
    if dtype == 0:
        return "undefined"
    name = _ox_dtype_name(dtype)
    try:
        shape = _ox_dims(tensor["shape_"])
    except (gdb.error, gdb.MemoryError, _OxUnreadable):
        return name + "[<unreadable shape>]"
    text = name + _ox_dims_text(shape)
    if not with_elements:
        return text
    numel = _ox_int(tensor["numel_"])
    storage = _ox_shared_ptr(tensor["storage_"])
    if _ox_address(storage) == 0:
        return text + " (no storage)"
    if dtype not in _OX_DTYPES or numel < 0:
        return text
    shown = min(numel, ONNXSCRIPT_MAX_ELEMENTS)
    try:
        base = _ox_address(storage.dereference()["data_"])
        elements = _ox_elements(dtype, base + _ox_int(tensor["offset_"]), shown)
    except (gdb.error, gdb.MemoryError, _OxUnreadable, struct.error):
        return text + " = <unreadable elements>"
    if elements is None:
        return text
    return text + " = {" + ", ".join(elements) + (", ..." if numel > shown else "") + "}"


def _ox_shape_text(shape):
    """'[N,3]' for an ir::Shape."""
    rep = shape["rep_"]
    if _ox_address(rep) == 0:
        return "[]"
    size = _ox_int(rep.dereference()["size"])
    if size > _OX_MAX_RANK:
        raise _OxUnreadable("rank %d" % size)
    dim_type = gdb.lookup_type("onnxscript::ir::Dim")
    first = (rep + 1).cast(dim_type.pointer())
    parts = []
    for i in range(size):
        dim = first[i]
        kind = _ox_int(dim["kind_"])
        if kind == 1:
            parts.append(str(_ox_int(dim["value_"])))
        elif kind == 2:
            parts.append(_ox_std_string(dim["symbol_"]))
        else:
            parts.append("?")
    return "[" + ",".join(parts) + "]"


def _ox_type_text(type_value, depth=0):
    """An ir::Type as Type::to_string() writes it: 'float[N,3]', 'seq(int64[])'."""
    if depth > _OX_MAX_DEPTH:
        return "..."
    kind = _ox_int(type_value["kind"])
    elem = _ox_int(type_value["elem_type"])

    def nested():
        pointer = _ox_shared_ptr(type_value["element"])
        if _ox_address(pointer) == 0:
            return "?"
        return _ox_type_text(pointer.dereference(), depth + 1)

    def shape():
        contained = _ox_optional(type_value["shape"])
        return "" if contained is None else _ox_shape_text(contained)

    if kind == 0:
        return "?"
    if kind == 1:
        return _ox_dtype_name(elem) + shape()
    if kind == 2:
        return "sparse_tensor(%s%s)" % (_ox_dtype_name(elem), shape())
    if kind == 3:
        return "seq(%s)" % nested()
    if kind == 4:
        return "optional(%s)" % nested()
    if kind == 5:
        return "map(%s, %s)" % (_ox_dtype_name(elem), nested())
    if kind == 6:
        return "opaque"
    raise _OxUnreadable("type kind %d" % kind)


def _ox_runtime_value_text(value, depth=0):
    """An eval::RuntimeValue without its class name: 'tensor float[2] = {1, 2}'."""
    if depth > _OX_MAX_DEPTH:
        return "..."
    kind = _ox_int(value["kind_"])
    if kind == 0:
        return "none"
    if kind == 1:
        return "tensor " + _ox_tensor_text(value["tensor_"])
    names = {2: "SequenceValue", 3: "OptionalValue", 4: "MapValue"}
    if kind not in names:
        raise _OxUnreadable("kind %d" % kind)
    payload = _ox_shared_ptr(value["payload_"])
    if _ox_address(payload) == 0:
        raise _OxUnreadable("no payload")
    payload_type = gdb.lookup_type("onnxscript::eval::" + names[kind])
    body = payload.cast(payload_type.pointer()).dereference()
    if kind == 2:
        items = body["items"]["_M_impl"]
        start, finish = items["_M_start"], items["_M_finish"]
        count = _ox_int(finish - start)
        if count < 0 or count > (1 << 40):
            raise _OxUnreadable("sequence length %d" % count)
        shown = [_ox_runtime_value_text(start[i], depth + 1)
                 for i in range(min(count, _OX_MAX_ITEMS))]
        if count > _OX_MAX_ITEMS:
            shown.append("...")
        return "sequence(%s) of %d = [%s]" % (
            _ox_type_text(body["elem_type"]), count, ", ".join(shown))
    if kind == 3:
        contained = _ox_shared_ptr(body["value"])
        if _ox_address(contained) == 0:
            return "optional(%s) empty" % _ox_type_text(body["elem_type"])
        return "optional holding " + _ox_runtime_value_text(contained.dereference(), depth + 1)
    return "map keys %s values %s" % (_ox_tensor_text(body["keys"]), _ox_tensor_text(body["values"]))


def _ox_ir_value_name(pointer):
    """The name of the ir::Value at `pointer`, quoted; '<none>' for null."""
    if _ox_address(pointer) == 0:
        return "<none>"
    return _ox_quote(_ox_std_string(pointer.dereference()["name_"]))


def _ox_small_vector(vector):
    """The elements of an ir::SmallVector, as gdb.Values (at most 64)."""
    size = _ox_int(vector["size_"])
    if size > (1 << 20):
        raise _OxUnreadable("size %d" % size)
    data = vector["data_"]
    items = [data[i] for i in range(min(size, 64))]
    return items, size > 64


def _ox_names(vector):
    items, more = _ox_small_vector(vector)
    return ", ".join([_ox_ir_value_name(v) for v in items] + (["..."] if more else []))


def _ox_ir_value_type(value):
    box = value["type_"]["object_"]
    if _ox_address(box) == 0:
        return None
    contained = _ox_optional(box.dereference())
    return None if contained is None else _ox_type_text(contained)


def _ox_guarded(what, function, value):
    """function(value), or a plain description when memory is unreadable."""
    try:
        return function(value)
    except gdb.MemoryError as e:
        return "%s <unreadable memory: %s>" % (what, e)
    except (gdb.error, _OxUnreadable, struct.error, ValueError, OverflowError,
            UnicodeError, RuntimeError) as e:
        return "%s <not printable: %s>" % (what, e)


class _OxPrinter:
    """Base of the printers: to_string() never raises."""

    what = "?"

    def __init__(self, value):
        self.value = value

    def to_string(self):
        return _ox_guarded(self.what, self.text, self.value)

    def text(self, value):
        raise NotImplementedError


class TensorPrinter(_OxPrinter):
    what = "Tensor"

    def text(self, value):
        return "Tensor " + _ox_tensor_text(value)


class RuntimeValuePrinter(_OxPrinter):
    what = "RuntimeValue"

    def text(self, value):
        return "RuntimeValue " + _ox_runtime_value_text(value)


class ScriptValuePrinter(_OxPrinter):
    """onnxscript::Value: a kind tag and a payload union (`payload_`), whose
    kConcrete member points at a detail::ConcreteBox holding the value. A
    value that adapts its type (an attribute used as a value) says so."""

    what = "Value"

    def text(self, value):
        kind = _ox_int(value["kind_"])
        text = self._text(kind, value["payload_"])
        if kind in (1, 2) and _ox_int(value["adapts_type_"]) & 0xFF:
            text += " (adapts its type)"
        return text

    def _text(self, kind, value):
        if kind == 0:
            return "Value none"
        if kind == 1:
            traced = value["traced_"]
            if _ox_address(traced) == 0:
                return "Value traced <null>"
            node = traced.dereference()
            type_text = _ox_ir_value_type(node)
            return "Value traced %s '%s'" % (type_text or "?", _ox_std_string(node["name_"]))
        if kind == 2:
            pointer = value["concrete_"]
            if _ox_address(pointer) == 0:
                return "Value concrete <null>"
            return "Value concrete " + _ox_runtime_value_text(pointer.dereference()["value"])
        if kind == 3:
            return "Value literal " + _ox_float(float(value["float_"]), 17)
        if kind == 4:
            return "Value literal %d" % _ox_int(value["int_"])
        if kind == 5:
            return "Value literal " + ("true" if _ox_int(value["bool_"]) & 0xFF else "false")
        raise _OxUnreadable("kind %d" % kind)


class TypedValuePrinter(ScriptValuePrinter):
    """FLOAT<"N", 3> and the other typed parameters: an onnxscript::Value
    with its declared type in the class name; printed as that Value."""

    def text(self, value):
        base = value.type.strip_typedefs().fields()[0].type
        return ScriptValuePrinter.text(self, value.cast(base))


class IrValuePrinter(_OxPrinter):
    what = "ir::Value"

    def text(self, value):
        out = "ir::Value " + _ox_quote(_ox_std_string(value["name_"]))
        out += " " + (_ox_ir_value_type(value) or "(no type)")
        producer = value["producer_"]
        if _ox_address(producer) == 0:
            const_value = value["const_value_"]["object_"]
            if _ox_address(const_value) != 0:
                return out + ", initializer " + _ox_tensor_text(const_value.dereference())
            return out + ", no producer"
        op_type = _ox_std_string(producer.dereference()["op_type_"].dereference())
        return out + ", output %d of %s" % (_ox_int(value["output_index_"]), op_type)


class IrNodePrinter(_OxPrinter):
    what = "ir::Node"

    def text(self, node):
        op_type = _ox_std_string(node["op_type_"].dereference())
        domain = _ox_std_string(node["domain_"].dereference())
        name_box = node["name_"]["object_"]
        name = "" if _ox_address(name_box) == 0 else _ox_std_string(name_box.dereference())
        out = "ir::Node %s domain=%s name=%s (%s) -> (%s)" % (
            op_type, _ox_quote(domain), _ox_quote(name), _ox_names(node["inputs_"]),
            _ox_names(node["outputs_"]))
        if _ox_int(node["erased_"]) & 0xFF:
            out += " [erased]"
        return out


class TypePrinter(_OxPrinter):
    what = "ir::Type"

    def text(self, value):
        return "ir::Type " + _ox_type_text(value)


class ShapePrinter(_OxPrinter):
    what = "ir::Shape"

    def text(self, value):
        return "ir::Shape " + _ox_shape_text(value)


class DimsPrinter(_OxPrinter):
    what = "ir::Dims"

    def text(self, value):
        return "ir::Dims " + _ox_dims_text(_ox_dims(value))


def _ox_build_printers():
    printers = gdb.printing.RegexpCollectionPrettyPrinter("onnxscript")
    printers.add_printer("Tensor", "^onnxscript::ir::Tensor$", TensorPrinter)
    printers.add_printer("RuntimeValue", "^onnxscript::eval::RuntimeValue$", RuntimeValuePrinter)
    printers.add_printer("Value", "^onnxscript::Value$", ScriptValuePrinter)
    printers.add_printer("TypedValue", "^onnxscript::TypedValue<.*>$", TypedValuePrinter)
    printers.add_printer("ir::Value", "^onnxscript::ir::Value$", IrValuePrinter)
    printers.add_printer("ir::Node", "^onnxscript::ir::Node$", IrNodePrinter)
    printers.add_printer("ir::Type", "^onnxscript::ir::Type$", TypePrinter)
    printers.add_printer("ir::Shape", "^onnxscript::ir::Shape$", ShapePrinter)
    printers.add_printer("ir::Dims", "^onnxscript::ir::Dims$", DimsPrinter)
    return printers


# Registered globally, replacing an earlier copy: loading the file twice
# (auto-loaded with the library, then sourced by hand) keeps one set.
gdb.printing.register_pretty_printer(None, _ox_build_printers(), replace=True)
