// PTO-UNIT: {"id":"PTO-TILE-MODEL-LEGALITY-DTYPE-LAYOUT","surface":"tile","classification":["model","legality","dtype-layout"],"depends_on":["PTO-ARCH-DATA-TYPES-TILE-DATA-TYPES"]}
// NDF-BEGIN: PTO-TILE-DATATYPE-SETS-001
// ndf: kind=executable level=L3 layer=tile status=accepted
// The helpers in this unit MUST be the single definition of the DataType sets
// used by Tile legality. TileVecArithmeticDataTypeSupported MUST accept
// exactly FP64, FP32, TF32, HF32, FP16, BF16, E4M3, E5M2, S64, S32, S16, S8,
// U64, U32, U16 and U8. TileFloatingElementwiseDataTypeSupported MUST accept
// exactly the eight floating-point members of that set. Owner prose that
// lists a DataType set MUST agree with the helper the owner calls.
// Decisions: ADR-0035.
// NDF-END: PTO-TILE-DATATYPE-SETS-001
// Floating-point types with a full-width element: no packed pairs, no
// exponent-only or HiF formats.
pure func TileDataTypeIsFloatingElementwise(data_type: TileDataType)
    => boolean
begin
    case data_type of
        when TileDataType_FP64, TileDataType_FP32 => return TRUE;
        when TileDataType_TF32, TileDataType_HF32 => return TRUE;
        when TileDataType_FP16, TileDataType_BF16 => return TRUE;
        when TileDataType_E4M3, TileDataType_E5M2 => return TRUE;
        otherwise => return FALSE;
    end;
end;

// Signed and unsigned integers of 8, 16, 32 or 64 bits (no 4-bit pairs).
pure func TileDataTypeIsWholeInteger(data_type: TileDataType) => boolean
begin
    case data_type of
        when TileDataType_S64, TileDataType_U64 => return TRUE;
        when TileDataType_S32, TileDataType_U32 => return TRUE;
        when TileDataType_S16, TileDataType_U16 => return TRUE;
        when TileDataType_S8, TileDataType_U8 => return TRUE;
        otherwise => return FALSE;
    end;
end;

pure func TileFloatingElementwiseDataTypeSupported(data_type: TileDataType)
    => boolean
begin
    return TileDataTypeIsFloatingElementwise(data_type);
end;

// The sixteen-type arithmetic set of the TADD family.
pure func TileVecArithmeticDataTypeSupported(data_type: TileDataType)
    => boolean
begin
    return TileDataTypeIsFloatingElementwise(data_type) ||
           TileDataTypeIsWholeInteger(data_type);
end;

// Element width in bits. A packed pair of 4-bit values occupies one byte.
pure func TileElementBits(data_type: TileDataType) => integer {8, 16, 32, 64}
begin
    case data_type of
        when TileDataType_FP64, TileDataType_S64, TileDataType_U64 => return 64;
        when TileDataType_FP32, TileDataType_TF32, TileDataType_HF32 => return 32;
        when TileDataType_S32, TileDataType_U32 => return 32;
        when TileDataType_FP16, TileDataType_BF16 => return 16;
        when TileDataType_S16, TileDataType_U16 => return 16;
        otherwise => return 8;
    end;
end;

pure func TileDataTypeIsSigned(data_type: TileDataType) => boolean
begin
    case data_type of
        when TileDataType_S64, TileDataType_S32 => return TRUE;
        when TileDataType_S16, TileDataType_S8 => return TRUE;
        otherwise => return FALSE;
    end;
end;

type TileLayout of enumeration {
    TileLayout_RowMajor,
    TileLayout_ColumnMajor
};

type TileLocation of enumeration {
    TileLocation_Any,
    TileLocation_Local
};

// The sample has four Tile registers of at most 64 elements each. An
// element is kept zero-extended to PTO_XLEN bits; `defined` is FALSE for
// an element that holds no value (never written, or Null padding).
constant PTO_TILE_REGISTER_COUNT = 4;
constant PTO_TILE_MAX_ELEMENTS = 64;

type TileIndex of integer {0..3};

type TileState of record {
    configured: boolean,
    capacity_bytes: integer,
    rows: integer,
    columns: integer,
    valid_rows: integer,
    valid_columns: integer,
    data_type: TileDataType,
    layout: TileLayout,
    location: TileLocation,
    contents_defined: boolean,
    elements: array [[64]] of bits(64),
    defined: array [[64]] of boolean
};

var _Tiles: array [[4]] of TileState;

func ResetTileState()
begin
    for index = 0 to PTO_TILE_REGISTER_COUNT - 1 looplimit 4 do
        var cleared: TileState;
        _Tiles[[index]] = cleared;
    end;
end;

// Install a descriptor: physical rows x columns elements of data_type in
// capacity_bytes, of which the top-left valid_rows x valid_columns are the
// valid region. Every element starts undefined.
func ConfigureTile(index: TileIndex, capacity_bytes: integer,
    rows: integer, columns: integer, valid_rows: integer,
    valid_columns: integer, data_type: TileDataType, layout: TileLayout,
    location: TileLocation)
begin
    assert rows >= 1 && columns >= 1 && rows * columns <= PTO_TILE_MAX_ELEMENTS;
    assert rows * columns * TileElementBits(data_type) <= capacity_bytes * 8;
    assert valid_rows >= 1 && valid_rows <= rows;
    assert valid_columns >= 1 && valid_columns <= columns;
    var tile: TileState;
    tile.configured = TRUE;
    tile.capacity_bytes = capacity_bytes;
    tile.rows = rows;
    tile.columns = columns;
    tile.valid_rows = valid_rows;
    tile.valid_columns = valid_columns;
    tile.data_type = data_type;
    tile.layout = layout;
    tile.location = location;
    tile.contents_defined = FALSE;
    _Tiles[[index]] = tile;
end;

readonly func TileDescriptorLegal(index: TileIndex) => boolean
begin
    let tile = _Tiles[[index]];
    return tile.configured && tile.valid_rows <= tile.rows &&
           tile.valid_columns <= tile.columns;
end;

pure func TileElementOffset(tile: TileState, row: integer, column: integer)
    => integer
begin
    assert row >= 0 && row < tile.rows && column >= 0 && column < tile.columns;
    if tile.layout == TileLayout_RowMajor then
        return row * tile.columns + column;
    end;
    return column * tile.rows + row;
end;

// Keep the low element-width bits of value.
pure func TileElementValue(data_type: TileDataType, value: bits(64))
    => bits(64)
begin
    let width = TileElementBits(data_type);
    if width == 64 then
        return value;
    end;
    return ZeroExtend{64}(value[width-1:0]);
end;

// A valid-region write keeps contents_defined up to date: it is TRUE once
// every valid element holds a value.
func WriteTileElement(index: TileIndex, row: integer, column: integer,
    value: bits(64))
begin
    let tile = _Tiles[[index]];
    let offset = TileElementOffset(tile, row, column);
    _Tiles[[index]].elements[[offset]] = TileElementValue(tile.data_type, value);
    _Tiles[[index]].defined[[offset]] = TRUE;
    _Tiles[[index]].contents_defined = TileValidRegionDefined(index);
end;

readonly func ReadTileElement(index: TileIndex, row: integer, column: integer)
    => bits(64)
begin
    let tile = _Tiles[[index]];
    return tile.elements[[TileElementOffset(tile, row, column)]];
end;

readonly func TileElementDefined(index: TileIndex, row: integer,
    column: integer) => boolean
begin
    let tile = _Tiles[[index]];
    return tile.defined[[TileElementOffset(tile, row, column)]];
end;

readonly func TileValidRegionDefined(index: TileIndex) => boolean
begin
    let tile = _Tiles[[index]];
    for r = 0 to tile.valid_rows - 1 looplimit 64 do
        for c = 0 to tile.valid_columns - 1 looplimit 64 do
            if !tile.defined[[TileElementOffset(tile, r, c)]] then
                return FALSE;
            end;
        end;
    end;
    return TRUE;
end;

// An element of a captured copy: sources are read from a snapshot so a
// destination that aliases a source observes the old payload.
pure func TileSnapshotElement(tile: TileState, row: integer, column: integer)
    => bits(64)
begin
    return tile.elements[[TileElementOffset(tile, row, column)]];
end;

// PadValue codes 00, 01, 10 and 11 select Zero, Max, Min and Null.
type TilePadValue of enumeration {
    TilePad_Zero,
    TilePad_Max,
    TilePad_Min,
    TilePad_Null
};

pure func TilePadValueOfCode(code: bits(2)) => TilePadValue
begin
    case code of
        when '00' => return TilePad_Zero;
        when '01' => return TilePad_Max;
        when '10' => return TilePad_Min;
        otherwise => return TilePad_Null;
    end;
end;

// Max and Min are the largest and smallest integers of an integer type and
// the two infinities of a floating-point type.
pure func TilePadElement(data_type: TileDataType, pad: TilePadValue)
    => bits(64)
begin
    let width = TileElementBits(data_type);
    if pad == TilePad_Zero || pad == TilePad_Null then
        return Zeros{64};
    end;
    if TileDataTypeIsWholeInteger(data_type) then
        if !TileDataTypeIsSigned(data_type) then
            return if pad == TilePad_Max then
                TileElementValue(data_type, Ones{64}) else Zeros{64};
        end;
        let magnitude = LSR(Ones{64}, 65 - width);
        return if pad == TilePad_Max then magnitude else
            TileElementValue(data_type, NOT magnitude);
    end;
    let (exponent_bits, fraction_bits) = TileFloatFormat(data_type);
    let infinity = LSL(ZeroExtend{64}(Ones{exponent_bits}), fraction_bits);
    return if pad == TilePad_Max then infinity else
        infinity OR LSL(ZeroExtend{64}('1'), width - 1);
end;

// Fill every physical position outside the valid region with pad; Null
// leaves those positions undefined.
func ApplyTilePadding(index: TileIndex, pad: TilePadValue)
begin
    let tile = _Tiles[[index]];
    for r = 0 to tile.rows - 1 looplimit 64 do
        for c = 0 to tile.columns - 1 looplimit 64 do
            if r >= tile.valid_rows || c >= tile.valid_columns then
                let offset = TileElementOffset(tile, r, c);
                _Tiles[[index]].elements[[offset]] =
                    TilePadElement(tile.data_type, pad);
                _Tiles[[index]].defined[[offset]] = pad != TilePad_Null;
            end;
        end;
    end;
end;

// Exponent and fraction widths of the floating-point formats the sample
// computes with (IEEE 754 style: biased exponent, hidden bit, all-ones
// exponent for infinities and NaNs). HF32 and E4M3 give (0, 0): the sample
// does not compute with them, and ExecuteTileBinary and ExecuteTileUnary
// stop on an assertion for them.
pure func TileFloatFormat(data_type: TileDataType) => (integer, integer)
begin
    case data_type of
        when TileDataType_FP64 => return (11, 52);
        when TileDataType_FP32 => return (8, 23);
        when TileDataType_TF32 => return (8, 10);
        when TileDataType_FP16 => return (5, 10);
        when TileDataType_BF16 => return (8, 7);
        when TileDataType_E5M2 => return (5, 2);
        otherwise => return (0, 0);
    end;
end;

// Operand legality of a two-source elementwise operation: both sources and
// the destination are legal descriptors of one shape, one row-major layout
// and one DataType of the arithmetic set, and both sources are defined.
readonly func TileOperandsLegal_ExecuteTileBinary(operation: TileBinaryOp,
    destination: TileIndex, left: TileIndex, right: TileIndex) => boolean
begin
    if !TileDescriptorLegal(destination) || !TileDescriptorLegal(left) ||
       !TileDescriptorLegal(right) then
        return FALSE;
    end;
    let d = _Tiles[[destination]];
    let a = _Tiles[[left]];
    let b = _Tiles[[right]];
    if !TileVecArithmeticDataTypeSupported(d.data_type) then
        return FALSE;
    end;
    if a.data_type != d.data_type || b.data_type != d.data_type then
        return FALSE;
    end;
    if !a.contents_defined || !b.contents_defined then
        return FALSE;
    end;
    return TileSameShape(d, a) && TileSameShape(d, b);
end;

// Operand legality of a one-source floating-point operation.
readonly func TileOperandsLegal_ExecuteTileUnary(operation: TileUnaryOp,
    destination: TileIndex, source: TileIndex) => boolean
begin
    if !TileDescriptorLegal(destination) || !TileDescriptorLegal(source) then
        return FALSE;
    end;
    let d = _Tiles[[destination]];
    let s = _Tiles[[source]];
    if !TileFloatingElementwiseDataTypeSupported(s.data_type) ||
       s.data_type != d.data_type || !s.contents_defined then
        return FALSE;
    end;
    return TileSameShape(d, s);
end;

pure func TileSameShape(a: TileState, b: TileState) => boolean
begin
    return a.layout == TileLayout_RowMajor && b.layout == TileLayout_RowMajor &&
           a.rows == b.rows && a.columns == b.columns &&
           a.valid_rows == b.valid_rows && a.valid_columns == b.valid_columns;
end;
