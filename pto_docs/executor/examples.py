"""Default worked-example cases, one or more per supported instruction.

Every case has a valid region smaller than the physical tile and an explicit
PadValue so padding shows, and exercises the operation's special values
where it has any.
"""

from __future__ import annotations

import copy

from .registry import OPS

INF, NINF, NAN = "inf", "-inf", "nan"


def _tile(dt, elements, capacity=128, columns=8, rows=None, kind=None):
    from . import dtypes, state

    if kind == "predicate":
        t = {"kind": "predicate", "capacity_bytes": capacity, "rows": rows, "columns": columns}
    else:
        t = {"capacity_bytes": capacity,
             "rows": rows or state.derived_rows(capacity, columns, dtypes.get(dt)),
             "columns": columns, "data_type": dt}
    t["valid_rows"] = len(elements) if elements else 0
    t["valid_columns"] = len(elements[0]) if elements else 0
    if elements is not None:
        t["elements"] = elements
    return t


def _case(mnemonic, tiles, sources, destination, pad, en, zh, **bundle):
    return {
        "schema": "pto-docs.case.v1",
        "caption": {"en": en, "zh-CN": zh},
        "tiles": {str(k): v for k, v in tiles.items()},
        "bundle": {"pad_value": pad, **bundle},
        "execute": {"instruction": mnemonic, "destination": destination, "sources": sources},
    }


def _binary(m, dt, a, b, pad, en, zh, **bundle):
    return _case(m, {0: _tile(dt, a), 1: _tile(dt, b)}, [0, 1], 2, pad, en, zh, **bundle)


def _unary(m, dt, a, pad, en, zh):
    return _case(m, {0: _tile(dt, a)}, [0], 1, pad, en, zh)


_BINARY = {
    "TADD": [("FP32", [[1.5, INF, 2.0], [-0.0, 1.0, 0.25]], [[2.25, NINF, -2.0], [-0.0, 2.0 ** -30, 0.5]], "Zero",
              "FP32 sums of a 2x3 valid region; inf + -inf gives NaN, 1 + 2^-30 rounds to 1; no status flag is set (a tile-tile binary operation publishes none); Zero padding.",
              "2x3 有效区的 FP32 加法；inf + -inf 得 NaN，1 + 2^-30 舍入为 1；不置任何状态标志（tile-tile 二元运算不发布标志）；填充为零。"),
             ("U8", [[200, 255, 7]], [[100, 1, 8]], "Max",
              "U8 addition wraps modulo 256 (200 + 100 = 44, 255 + 1 = 0); Max padding writes 255.",
              "U8 加法按 256 取模回绕（200 + 100 = 44，255 + 1 = 0）；Max 填充写入 255。")],
    "TSUB": [("FP32", [[1.0, 5.5, INF]], [[1.0, 0.5, INF]], "Min",
              "FP32 differences; 1 - 1 is +0 and inf - inf gives NaN, no status flag set (a tile-tile binary operation publishes none); Min padding writes the lowest finite FP32.",
              "FP32 减法；1 - 1 得 +0，inf - inf 得 NaN，不置状态标志（tile-tile 二元运算不发布标志）；Min 填充写入 FP32 最小有限值。")],
    "TMUL": [("U8", [[200, 3, 16]], [[2, 5, 16]], "Min",
              "U8 products wrap modulo 256 (200 x 2 = 144, 16 x 16 = 0); Min padding writes 0.",
              "U8 乘法按 256 取模回绕（200 x 2 = 144，16 x 16 = 0）；Min 填充写入 0。"),
             ("FP32", [[3.0, 0.0, -2.0]], [[0.5, INF, -0.0]], "Zero",
              "FP32 products; 0 x inf gives NaN, no status flag set (a tile-tile binary operation publishes none), -2 x -0 gives +0.",
              "FP32 乘法；0 x inf 得 NaN，不置状态标志（tile-tile 二元运算不发布标志），-2 x -0 得 +0。")],
    "TDIV": [("FP32", [[1.0, 1.0, 0.0]], [[4.0, 0.0, 0.0]], "Zero",
              "FP32 quotients; 1 / 0 gives +inf, 0 / 0 gives NaN; no status flag is set (a tile-tile binary operation publishes none).",
              "FP32 除法；1 / 0 得 +inf，0 / 0 得 NaN；不置状态标志（tile-tile 二元运算不发布标志）。"),
             ("S16", [[7, -7, -32768]], [[2, 2, -1]], "Max",
              "S16 division truncates toward zero (-7 / 2 = -3); -32768 / -1 wraps to -32768.",
              "S16 除法向零截断（-7 / 2 = -3）；-32768 / -1 回绕为 -32768。")],
    "TREM": [("S32", [[7, -7, 7]], [[3, 3, -3]], "Zero",
              "S32 modulo takes the divisor's sign: 7 mod 3 = 1, -7 mod 3 = 2, 7 mod -3 = -2.",
              "S32 取模结果符号与除数相同：7 mod 3 = 1，-7 mod 3 = 2，7 mod -3 = -2。"),
             ("FP32", [[5.5, -5.5, 1.0]], [[2.0, 2.0, 0.0]], "Null",
              "FP32 modulo with the divisor's sign; x mod 0 gives NaN, no status flag set (a tile-tile binary operation publishes none); Null padding stays undefined.",
              "FP32 取模，结果符号与除数相同；x mod 0 得 NaN，不置状态标志（tile-tile 二元运算不发布标志）；Null 填充保持未定义。")],
    "TMAX": [("FP32", [[1.0, NAN, -0.0]], [[2.0, 3.0, 0.0]], "Min",
              "FP32 maximum; one NaN selects the numeric operand, max(-0, +0) is +0.",
              "FP32 取大；单个 NaN 时选数值操作数，max(-0, +0) 为 +0。")],
    "TMIN": [("FP32", [[1.0, NAN, -0.0]], [[2.0, 3.0, 0.0]], "Max",
              "FP32 minimum; one NaN selects the numeric operand, min(-0, +0) is -0.",
              "FP32 取小；单个 NaN 时选数值操作数，min(-0, +0) 为 -0。"),
             ("S8", [[-128, 5, 127]], [[0, -5, -1]], "Zero",
              "S8 minimum uses signed order.", "S8 取小按有符号顺序比较。")],
    "TAND": [("U8", [[0xF0, 0x0F, 0xFF]], [[0xCC, 0xCC, 0x55]], "Zero",
              "U8 bitwise AND of each valid element; Zero padding.", "U8 逐元素按位与；填充为零。")],
    "TOR": [("U16", [[0xF000, 0x0F0F, 0]], [[0x000F, 0xF0F0, 0]], "Max",
             "U16 bitwise OR; Max padding writes 0xFFFF.", "U16 按位或；Max 填充写入 0xFFFF。")],
    "TXOR": [("S8", [[-1, 0x55, 0]], [[0x0F, 0x55, -128]], "Min",
              "S8 bitwise XOR on the 8-bit pattern; Min padding writes -128.",
              "S8 按 8 位模式按位异或；Min 填充写入 -128。")],
    "TSHL": [("U8", [[1, 0x81, 3]], [[7, 1, 9]], "Zero",
              "U8 left shift by the low 3 bits of the count (9 acts as 1); bits above 8 are dropped.",
              "U8 左移，移位数取低 3 位（9 相当于 1）；超出 8 位的位被丢弃。")],
    "TSHR": [("S8", [[-128, -1, 64]], [[1, 7, 2]], "Zero",
              "S8 right shift is arithmetic: -128 >> 1 = -64, -1 >> 7 = -1.",
              "S8 右移为算术移位：-128 >> 1 = -64，-1 >> 7 = -1。")],
}

_UNARY = {
    "TABS": [("FP16", [[-1.5, -0.0, NINF, 2.0]], "Zero",
              "FP16 absolute value clears only the sign bit: -0 becomes +0, -inf becomes +inf.",
              "FP16 绝对值只清除符号位：-0 变为 +0，-inf 变为 +inf。"),
             ("S8", [[-128, -5, 5, 0]], "Max",
              "S8 absolute value wraps: |-128| stays -128.", "S8 绝对值回绕：|-128| 仍为 -128。")],
    "TNEG": [("FP32", [[1.0, 0.0, INF, -2.5]], "Min",
              "FP32 negation toggles the sign bit: 0 becomes -0, inf becomes -inf.",
              "FP32 取负翻转符号位：0 变为 -0，inf 变为 -inf。")],
    "TNOT": [("U16", [[0, 0xFFFF, 0x1234, 1]], "Zero",
              "U16 bitwise complement of each valid element.", "U16 逐元素按位取反。")],
    "TRELU": [("FP32", [[-3.0, -0.0, 2.0, NINF]], "Zero",
               "FP32 ReLU: negatives and -0 become +0, positives are kept.",
               "FP32 ReLU：负数与 -0 变为 +0，正数保持不变。"),
              ("S32", [[-7, 0, 9, -2147483648]], "Max",
               "S32 ReLU maps negative integers to 0.", "S32 ReLU 把负整数变为 0。")],
    "TSQRT": [("FP32", [[4.0, -0.0, INF, -1.0]], "Zero",
               "FP32 square root: sqrt(4) = 2, -0 and +inf are kept, a negative input gives NaN with NV.",
               "FP32 平方根：sqrt(4) = 2，-0 与 +inf 保持不变，负数输入得 NaN 并置 NV。")],
    "TRSQRT": [("FP32", [[4.0, 0.0, INF, -4.0]], "Zero",
                "FP32 reciprocal square root: 1/sqrt(4) = 0.5, +0 gives +inf with DZ, +inf gives +0, a negative gives NaN with NV.",
                "FP32 平方根倒数：1/sqrt(4) = 0.5，+0 得 +inf 并置 DZ，+inf 得 +0，负数得 NaN 并置 NV。")],
    "TEXP": [("FP32", [[0.0, 1.0, NINF, 100.0]], "Zero",
              "FP32 exponential: exp(0) = 1, exp(-inf) = +0, exp(100) overflows to +inf with OF and NX.",
              "FP32 指数：exp(0) = 1，exp(-inf) = +0，exp(100) 上溢为 +inf 并置 OF 与 NX。")],
    "TLOG": [("FP32", [[1.0, 0.0, -1.0, 8.0]], "Zero",
              "FP32 natural log: log(1) = +0, log(0) = -inf with DZ, log(-1) = NaN with NV.",
              "FP32 自然对数：log(1) = +0，log(0) = -inf 并置 DZ，log(-1) = NaN 并置 NV。")],
    "TRECIP": [("FP32", [[2.0, -0.0, NINF, 3.0]], "Zero",
                "FP32 reciprocal: 1/2 = 0.5, 1/-0 = -inf with DZ, 1/-inf = -0, 1/3 is inexact (NX).",
                "FP32 倒数：1/2 = 0.5，1/-0 = -inf 并置 DZ，1/-inf = -0，1/3 不精确（NX）。")],
}


def _convert_cases():
    m = "TCVT"
    return [
        _case(m, {0: _tile("FP32", [[1.5, 2.5, -1.5, -0.0]])}, [0], 1, "Zero",
              "FP32 to S32 with RMode=RNE: halfway values go to the even integer (1.5 -> 2, 2.5 -> 2, "
              "-1.5 -> -2) and NX is set; -0 becomes 0.",
              "FP32 转 S32，RMode=RNE：恰在中点的值舍入到偶数（1.5 -> 2，2.5 -> 2，-1.5 -> -2），"
              "并置 NX；-0 变为 0。",
              data_type="S32", rounding="RNE"),
        _case(m, {0: _tile("FP32", [[1.9, -1.9, 3.0e9, NAN]])}, [0], 1, "Max",
              "FP32 to S32 with the default rounding RTZ (1.9 -> 1, -1.9 -> -1); 3e9 is out of range "
              "and NaN has no integer value: both set NV and saturate (2147483647 and 0).",
              "FP32 转 S32，使用默认舍入 RTZ（1.9 -> 1，-1.9 -> -1）；3e9 超出范围、NaN 没有整数值："
              "二者均置 NV 并饱和（2147483647 与 0）。",
              data_type="S32"),
        _case(m, {0: _tile("S32", [[300, -5, 255, 7]], capacity=512)}, [0], 1, "Zero",
              "S32 to U8 with Sat=1 clamps to [0, 255] (300 -> 255, -5 -> 0); without Sat the value "
              "would be truncated modulo 256 (300 -> 44). Integer pairs set no flags.",
              "S32 转 U8，Sat=1 时钳位到 [0, 255]（300 -> 255，-5 -> 0）；不饱和时按 256 取模截断"
              "（300 -> 44）。整数之间的转换不置标志。",
              data_type="U8", saturate=True),
        _case(m, {0: _tile("FP32", [[65520.0, -0.0, INF, NAN, 0.1]], capacity=256)}, [0], 1, "Min",
              "FP32 to FP16 (RNE): 65520 overflows to +inf with OF and NX, -0 keeps its sign (0x8000), "
              "inf stays inf, NaN becomes the canonical 0x7e00, 0.1 rounds (NX).",
              "FP32 转 FP16（RNE）：65520 上溢为 +inf 并置 OF 与 NX，-0 保留符号（0x8000），"
              "inf 保持 inf，NaN 变为规范 NaN 0x7e00，0.1 被舍入（NX）。",
              data_type="FP16"),
        _case(m, {0: _tile("FP16", [[1.0, "0x0001", -2.5, INF]])}, [0], 1, "Zero",
              "FP16 to FP32 widening is exact: the smallest FP16 subnormal becomes 2^-24; no flags.",
              "FP16 转 FP32 的加宽是精确的：最小的 FP16 次正规数变为 2^-24；不置任何标志。",
              data_type="FP32"),
    ]


def _special_cases(m):
    if m == "TCVT":
        return _convert_cases()
    if m == "TFMA":
        t = {0: _tile("FP32", [[2.0, 0.0, 1.0]]), 1: _tile("FP32", [[3.0, INF, 2.0 ** -30]]),
             2: _tile("FP32", [[1.0, 1.0, 1.0]])}
        return [_case(m, t, [0, 1, 2], 3, "Zero",
                      "FP32 fused multiply-add, one rounding: 2 x 3 + 1 = 7, 0 x inf + 1 gives NaN with NV.",
                      "FP32 融合乘加，只舍入一次：2 x 3 + 1 = 7，0 x inf + 1 得 NaN 并置 NV。")]
    if m == "TCMP":
        return [_binary(m, "FP32", [[1.0, 2.0, NAN, -0.0]], [[2.0, 2.0, 1.0, 0.0]], "Zero",
                        "FP32 LT compare into a predicate tile: NaN compares false, -0 < +0 is false; padding bits are 0.",
                        "FP32 LT 比较写入谓词 tile：NaN 比较结果为假，-0 < +0 为假；填充位为 0。",
                        cmode="LT")]
    if m == "TSEL":
        t = {0: _tile(None, [[1, 0, 1]], columns=8, rows=4, kind="predicate"),
             1: _tile("FP32", [[1.0, 2.0, 3.0]], columns=8),
             2: _tile("FP32", [[-1.0, -2.0, NAN]], columns=8)}
        return [_case(m, t, [0, 1, 2], 3, "Zero",
                      "Select by predicate bit: 1 takes SrcTrue, 0 takes SrcFalse, copied bit for bit.",
                      "按谓词位选择：1 取 SrcTrue，0 取 SrcFalse，逐位复制。")]
    return None


def _expand_cases(spec):
    m, axis, op = spec.mnemonic, spec.axis, spec.op
    src = [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [-1.0, 0.5, 0.0, 9.0]]
    if axis == "column":
        b = _tile("FP32", [[10.0, 0.0, -2.0, 0.5]])
        where_en, where_zh = "the one-row broadcast down every row", "把单行广播源沿每一行"
    else:
        b = _tile("FP32", [[10.0], [0.0], [-2.0]], columns=1)
        where_en, where_zh = "the one-column broadcast across every column", "把单列广播源沿每一列"
    if op == "COPY":
        dest = _tile("FP32", None, columns=8)
        dest["valid_rows"], dest["valid_columns"] = 3, 4
        dest.pop("elements", None)
        if axis == "row":
            dest = {"capacity_bytes": 128, "rows": 4, "columns": 8, "data_type": "FP32",
                    "valid_rows": 3, "valid_columns": 4}
        return [_case(m, {0: b, 1: dest}, [0], 1, "Min",
                      f"Copies {where_en} of a 3x4 valid region bit for bit, no flags; Min padding.",
                      f"{where_zh}逐位复制到 3x4 有效区，不置任何标志；Min 填充。")]
    if op == "EXPDIF":
        return [_case(m, {0: _tile("FP32", src), 1: b}, [0, 1], 2, "Zero",
                      f"exp(src - broadcast) with {where_en}; exp(0) = 1 exactly, other results are inexact (NX).",
                      f"{where_zh}计算 exp(src - broadcast)；exp(0) 恰为 1，其余结果不精确（NX）。")]
    names = {"ADD": ("adds", "加"), "SUB": ("subtracts", "减"), "MUL": ("multiplies by", "乘"),
             "DIV": ("divides by", "除以"), "MAX": ("takes the maximum with", "取大"),
             "MIN": ("takes the minimum with", "取小")}
    en_op, zh_op = names[op]
    extra_en = {"DIV": " Dividing by the broadcast 0 gives +inf with DZ."}.get(op, "")
    extra_zh = {"DIV": "除以广播的 0 得 +inf 并置 DZ。"}.get(op, "")
    return [_case(m, {0: _tile("FP32", src), 1: b}, [0, 1], 2, "Zero",
                  f"Each element of a 3x4 FP32 valid region {en_op} {where_en}.{extra_en} Zero padding.",
                  f"3x4 FP32 有效区的每个元素与{where_zh}做{zh_op}运算。{extra_zh}填充为零。")]


def _reduce_cases(spec):
    m, axis, op = spec.mnemonic, spec.axis, spec.op
    if op.startswith("ARG"):
        src = [[3.0, 7.0, 7.0, -1.0], [2.0, -5.0, 9.0, 9.0], [3.0, 7.0, -5.0, 0.0]]
    else:
        src = [[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 8.0, INF], [2.0, 0.0, -3.0, 1.0]]
    along_en = "each row (left to right)" if axis == "row" else "each column (top to bottom)"
    along_zh = "每一行（从左到右）" if axis == "row" else "每一列（自上而下）"
    what = {"SUM": ("sum", "求和"), "PRODUCT": ("product", "求积"), "MAX": ("maximum", "最大值"),
            "MIN": ("minimum", "最小值"), "ARGMAX": ("index of the maximum", "最大值下标"),
            "ARGMIN": ("index of the minimum", "最小值下标")}[op]
    tie_en = " Ties keep the lowest index; the index is written as S32." if op.startswith("ARG") else ""
    tie_zh = " 相等时保留最小下标；下标以 S32 写出。" if op.startswith("ARG") else ""
    return [_case(m, {0: _tile("FP32", src)}, [0], 1, "Max",
                  f"Typed {what[0]} of {along_en} of a 3x4 FP32 valid region.{tie_en} Max padding.",
                  f"对 3x4 FP32 有效区{along_zh}计算{what[1]}。{tie_zh}Max 填充。")]


def default_cases(mnemonic: str) -> list[dict]:
    """Worked-example cases for ``mnemonic`` (deep copies; safe to modify)."""
    spec = OPS.get(mnemonic)
    if spec is None:
        raise KeyError(f"unsupported instruction {mnemonic}")
    if mnemonic in _BINARY:
        cases = [_binary(mnemonic, *args) for args in _BINARY[mnemonic]]
    elif mnemonic in _UNARY:
        cases = [_unary(mnemonic, *args) for args in _UNARY[mnemonic]]
    elif spec.kind == "expand":
        cases = _expand_cases(spec)
    elif spec.kind == "reduce":
        cases = _reduce_cases(spec)
    else:
        cases = _special_cases(mnemonic)
    return copy.deepcopy(cases)
