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
