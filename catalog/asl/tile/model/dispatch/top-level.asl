// PTO-UNIT: {"id":"PTO-TILE-MODEL-DISPATCH-TOP-LEVEL","surface":"tile","classification":["model","dispatch","top-level"],"depends_on":["PTO-TILE-TADD","PTO-TILE-TMUL","PTO-TILE-TSQRT","PTO-TILE-TCOLEXPAND"],"catalog_projection":{"catalog":"tile-operations","deleted_names":["TADDC","TALLOC","TFREE","TSUBC"],"isa":"PTO Instruction Set Architecture","rejected_names":["TFILL/TEXPANDS","TPOW"],"rejected_review_only_codes":{"CUBE":[],"TEPL":[],"TLSU":[]},"reserved":{"tepl_selector_ranges":[["0x005","0x005"],["0x00E","0x00E"],["0x018","0x019"],["0x01D","0x01F"],["0x025","0x025"],["0x02E","0x039"],["0x03C","0x03F"],["0x04E","0x04F"],["0x05E","0x05F"],["0x061","0x061"],["0x069","0x069"],["0x075","0x07F"]]},"schema_version":3}}
type TileOperation of enumeration {
    TileOperation_TADD,
    TileOperation_TMUL,
    TileOperation_TSQRT,
    TileOperation_TCOLEXPAND
};

type TileSemanticHandler of enumeration {
    TileHandler_ExecuteTileBinary,
    TileHandler_ExecuteTileUnary,
    TileHandler_ExecuteTileExpand
};

// A TEPL selector is Mode in bits 6:5 and Function in bits 4:0.
pure func TileTeplSelector(mode: integer {0..3}, function: integer {0..31})
    => integer {0..127}
begin
    return (mode * 32 + function) as integer {0..127};
end;

// The sample assigns four selectors: 0x000, 0x002, 0x015 and 0x054.
pure func TileSelectorAssigned(selector: integer {0..127}) => boolean
begin
    return selector == 0 || selector == 2 || selector == 21 || selector == 84;
end;

pure func TileOperationOfSelector(selector: integer {0..127}) => TileOperation
begin
    assert TileSelectorAssigned(selector);
    if selector == 0 then
        return TileOperation_TADD;
    elsif selector == 2 then
        return TileOperation_TMUL;
    elsif selector == 21 then
        return TileOperation_TSQRT;
    else
        return TileOperation_TCOLEXPAND;
    end;
end;

pure func TileEngineOfOperation(operation: TileOperation) => TileExecutionEngine
begin
    case operation of
        when TileOperation_TADD, TileOperation_TMUL => return TileEngine_VEC;
        otherwise => return TileEngine_SFU;
    end;
end;

pure func TileHandlerOfOperation(operation: TileOperation) => TileSemanticHandler
begin
    case operation of
        when TileOperation_TADD, TileOperation_TMUL =>
            return TileHandler_ExecuteTileBinary;
        when TileOperation_TSQRT => return TileHandler_ExecuteTileUnary;
        otherwise => return TileHandler_ExecuteTileExpand;
    end;
end;

pure func TileTEPLAliasAcceptsOperation(
    alias: TileTEPLAlias,
    operation: TileOperation) => boolean
begin
    return TileTEPLAliasAcceptsEngine(alias, TileEngineOfOperation(operation));
end;

type TileBinaryOp of enumeration {
    TileBinary_ADD,
    TileBinary_MUL
};

type TileUnaryOp of enumeration {
    TileUnary_SQRT
};

// Sticky numeric status: NV bit 0, DZ bit 1, OF bit 2, UF bit 3, NX bit 4.
var _NumericStatus: bits(5);

readonly func NumericStatusFlags() => bits(5)
begin
    return _NumericStatus;
end;

pure func Pow2Real(exponent: integer) => real
begin
    if exponent >= 0 then
        return Real(2 ^ exponent);
    end;
    return 1.0 / Real(2 ^ (0 - exponent));
end;

// The value of a finite element of a format with exponent_bits and
// fraction_bits.
pure func TileFloatToReal(exponent_bits: integer, fraction_bits: integer,
    value: bits(64)) => real
begin
    let bias = 2 ^ (exponent_bits - 1) - 1;
    let fraction = UInt(value[fraction_bits-1:0]);
    let biased = UInt(value[(fraction_bits + exponent_bits) - 1:fraction_bits]);
    var magnitude: real;
    if biased == 0 then
        magnitude = Real(fraction) * Pow2Real((1 - bias) - fraction_bits);
    else
        magnitude = Real(fraction + 2 ^ fraction_bits) *
            Pow2Real((biased - bias) - fraction_bits);
    end;
    return if value[fraction_bits+exponent_bits] == '1' then
        0.0 - magnitude else magnitude;
end;

pure func TileFloatIsNaN(exponent_bits: integer, fraction_bits: integer,
    value: bits(64)) => boolean
begin
    return IsOnes(value[(fraction_bits + exponent_bits) - 1:fraction_bits]) &&
           !IsZero(value[fraction_bits-1:0]);
end;

pure func TileFloatIsInfinity(exponent_bits: integer, fraction_bits: integer,
    value: bits(64)) => boolean
begin
    return IsOnes(value[(fraction_bits + exponent_bits) - 1:fraction_bits]) &&
           IsZero(value[fraction_bits-1:0]);
end;

// The default quiet NaN: positive, all-ones exponent, fraction MSB set.
pure func TileFloatDefaultNaN(exponent_bits: integer, fraction_bits: integer)
    => bits(64)
begin
    return LSL(ZeroExtend{64}(Ones{exponent_bits}), fraction_bits) OR
           LSL(ZeroExtend{64}('1'), fraction_bits - 1);
end;

// Round an exact real to the format, to nearest with ties to even, and
// return the encoding with the OF, UF and NX flags it raises.
pure func TileFloatRound(exponent_bits: integer, fraction_bits: integer,
    exact: real) => (bits(64), bits(5))
begin
    let sign_bit = LSL(ZeroExtend{64}(if exact < 0.0 then '1' else '0'),
        exponent_bits + fraction_bits);
    if exact == 0.0 then
        return (Zeros{64}, Zeros{5});
    end;
    let magnitude = if exact < 0.0 then 0.0 - exact else exact;
    let bias = 2 ^ (exponent_bits - 1) - 1;
    let emin = 1 - bias;
    var exponent = ILog2(magnitude);
    if exponent < emin then
        exponent = emin;
    end;
    let scaled = magnitude * Pow2Real(fraction_bits - exponent);
    var significand = RoundDown(scaled);
    let remainder = scaled - Real(significand);
    if remainder > 0.5 || (remainder == 0.5 && significand MOD 2 == 1) then
        significand = significand + 1;
    end;
    if significand == 2 ^ (fraction_bits + 1) then
        significand = significand DIVRM 2;
        exponent = exponent + 1;
    end;
    var flags = Zeros{5};
    if remainder != 0.0 then
        flags[4] = '1';
        if significand < 2 ^ fraction_bits then
            flags[3] = '1';
        end;
    end;
    if exponent > bias then
        let infinity = LSL(ZeroExtend{64}(Ones{exponent_bits}), fraction_bits);
        return (sign_bit OR infinity, '10100');
    end;
    var biased = 0;
    var fraction = significand;
    if significand >= 2 ^ fraction_bits then
        biased = exponent + bias;
        fraction = significand - 2 ^ fraction_bits;
    end;
    let encoded = LSL(ZeroExtend{64}(biased[exponent_bits-1:0]), fraction_bits)
        OR ZeroExtend{64}(fraction[fraction_bits-1:0]);
    return (sign_bit OR encoded, flags);
end;

// The numeric profile of a one-source operation: the result element and
// its status flags. The sample computes a correctly rounded square root:
// signed zero and +inf are kept, a negative nonzero input gives the default
// NaN with NV, and a NaN input gives the default NaN (NV for a signalling
// one).
func TileProfileUnary(operation: TileUnaryOp, data_type: TileDataType,
    value: bits(64)) => (bits(64), bits(5))
begin
    let (e, f) = TileFloatFormat(data_type);
    assert e > 0;
    let sign = value[e + f];
    if TileFloatIsNaN(e, f, value) then
        let quiet = value[f - 1] == '1';
        return (TileFloatDefaultNaN(e, f), if quiet then '00000' else '00001');
    end;
    if IsZero(value[(e + f) - 1:0]) then
        return (value, Zeros{5});
    end;
    if sign == '1' then
        return (TileFloatDefaultNaN(e, f), '00001');
    end;
    if TileFloatIsInfinity(e, f, value) then
        return (value, Zeros{5});
    end;
    // Round to odd with three extra bits, then to nearest even: exact.
    let root = SqrtRounded(TileFloatToReal(e, f, value), f + 3);
    return TileFloatRound(e, f, root);
end;

// Elementwise two-source operation: integers wrap modulo 2^width; the
// floating-point formats round the exact result to nearest even. Both
// sources are captured before the destination is written, then the
// valid region and the padding are published together.
func ExecuteTileBinary(operation: TileBinaryOp, destination: TileIndex,
    left: TileIndex, right: TileIndex)
begin
    assert TileOperandsLegal_ExecuteTileBinary(operation, destination, left,
        right);
    let a = _Tiles[[left]];
    let b = _Tiles[[right]];
    let data_type = a.data_type;
    var flags = Zeros{5};
    for r = 0 to a.valid_rows - 1 looplimit 64 do
        for c = 0 to a.valid_columns - 1 looplimit 64 do
            let x = TileSnapshotElement(a, r, c);
            let y = TileSnapshotElement(b, r, c);
            var result: bits(64);
            if TileDataTypeIsWholeInteger(data_type) then
                result = if operation == TileBinary_ADD then x + y else
                    (UInt(x) * UInt(y))[63:0];
            else
                let (value, raised) = TileFloatBinary(operation, data_type, x, y);
                result = value;
                flags = flags OR raised;
            end;
            WriteTileElement(destination, r, c, result);
        end;
    end;
    ApplyTilePadding(destination, CurrentBundlePadValue());
    _NumericStatus = _NumericStatus OR flags;
end;

pure func TileFloatBinary(operation: TileBinaryOp, data_type: TileDataType,
    x: bits(64), y: bits(64)) => (bits(64), bits(5))
begin
    let (e, f) = TileFloatFormat(data_type);
    assert e > 0;
    if TileFloatIsNaN(e, f, x) || TileFloatIsNaN(e, f, y) then
        return (TileFloatDefaultNaN(e, f), Zeros{5});
    end;
    let x_inf = TileFloatIsInfinity(e, f, x);
    let y_inf = TileFloatIsInfinity(e, f, y);
    let sign_x = x[e + f];
    let sign_y = y[e + f];
    if x_inf || y_inf then
        if operation == TileBinary_ADD then
            if x_inf && y_inf && sign_x != sign_y then
                return (TileFloatDefaultNaN(e, f), '00001');
            end;
            return (if x_inf then x else y, Zeros{5});
        end;
        let other_zero = if x_inf then IsZero(y[(e + f) - 1:0]) else IsZero(x[(e + f) - 1:0]);
        if other_zero then
            return (TileFloatDefaultNaN(e, f), '00001');
        end;
        let infinity = LSL(ZeroExtend{64}(Ones{e}), f);
        let negative = LSL(ZeroExtend{64}(sign_x EOR sign_y), e + f);
        return (infinity OR negative, Zeros{5});
    end;
    let a = TileFloatToReal(e, f, x);
    let b = TileFloatToReal(e, f, y);
    let exact = if operation == TileBinary_ADD then a + b else a * b;
    if exact == 0.0 then
        // An exact zero sum is +0 unless both addends are -0; a product
        // of zeros takes the sign of the product.
        let negative = if operation == TileBinary_ADD then
            (sign_x == '1' && sign_y == '1') else sign_x != sign_y;
        return (if negative then LSL(ZeroExtend{64}('1'), e + f) else Zeros{64},
            Zeros{5});
    end;
    return TileFloatRound(e, f, exact);
end;

// One-source floating-point operation through the numeric profile.
func ExecuteTileUnary(operation: TileUnaryOp, destination: TileIndex,
    source: TileIndex)
begin
    assert TileOperandsLegal_ExecuteTileUnary(operation, destination, source);
    let s = _Tiles[[source]];
    var flags = Zeros{5};
    for r = 0 to s.valid_rows - 1 looplimit 64 do
        for c = 0 to s.valid_columns - 1 looplimit 64 do
            let (value, raised) = TileProfileUnary(operation, s.data_type,
                TileSnapshotElement(s, r, c));
            WriteTileElement(destination, r, c, value);
            flags = flags OR raised;
        end;
    end;
    ApplyTilePadding(destination, CurrentBundlePadValue());
    _NumericStatus = _NumericStatus OR flags;
end;

// The fault boundary of a direct Tile operation: its operand legality is
// checked first, and a rejected operation records Fault_TileLegality and
// has no other effect. The second source is ignored by one-source
// operations.
func ExecuteTileInstruction(operation: TileOperation, destination: TileIndex,
    first: TileIndex, second: TileIndex) => ExecutionStatus
begin
    var legal: boolean;
    case operation of
        when TileOperation_TADD =>
            legal = InstructionContractOperandsLegal_TADD(destination, first, second);
        when TileOperation_TMUL =>
            legal = InstructionContractOperandsLegal_TMUL(destination, first, second);
        when TileOperation_TSQRT =>
            legal = InstructionContractOperandsLegal_TSQRT(destination, first);
        otherwise =>
            legal = InstructionContractOperandsLegal_TCOLEXPAND(destination, first);
    end;
    if !legal then
        _LastFault = Fault_TileLegality;
        return ExecutionStatus_Faulted;
    end;
    case operation of
        when TileOperation_TADD =>
            InstructionContractExecute_TADD(destination, first, second);
        when TileOperation_TMUL =>
            InstructionContractExecute_TMUL(destination, first, second);
        when TileOperation_TSQRT =>
            InstructionContractExecute_TSQRT(destination, first);
        otherwise =>
            InstructionContractExecute_TCOLEXPAND(destination, first);
    end;
    return ExecutionStatus_Retired;
end;
