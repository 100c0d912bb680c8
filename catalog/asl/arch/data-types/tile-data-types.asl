// PTO-UNIT: {"id":"PTO-ARCH-DATA-TYPES-TILE-DATA-TYPES","surface":"arch","classification":["data-types","tile-data-types"],"depends_on":["PTO-ARCH-OVERVIEW-ARCHITECTURE"],"field_domains":[{"id":"PTO-FIELD-BLOCK-DATATYPE","width":5,"role":"Chooses the element data type named by Block data attributes and typed Block starts.","zero_meaning":"Code 0 selects FP64; it never means absent, inherited or none.","assigned":[{"value":0,"meaning":"FP64"},{"value":1,"meaning":"FP32"},{"value":2,"meaning":"TF32"},{"value":3,"meaning":"HF32"},{"value":4,"meaning":"FP16"},{"value":5,"meaning":"BF16"},{"value":6,"meaning":"HiF8"},{"value":7,"meaning":"E4M3"},{"value":8,"meaning":"E5M2"},{"value":9,"meaning":"E3M2"},{"value":10,"meaning":"E2M3"},{"value":11,"meaning":"E2M1X2"},{"value":12,"meaning":"E1M2X2"},{"value":13,"meaning":"E8M0"},{"value":14,"meaning":"HiF4X2"},{"value":16,"meaning":"S64"},{"value":17,"meaning":"S32"},{"value":18,"meaning":"S16"},{"value":19,"meaning":"S8"},{"value":20,"meaning":"S4X2"},{"value":24,"meaning":"U64"},{"value":25,"meaning":"U32"},{"value":26,"meaning":"U16"},{"value":27,"meaning":"U8"},{"value":28,"meaning":"U4X2"}],"reserved":[15,21,22,23,29,30,31],"rejection":"Reserved codes are kept for future extensions and reject before any architectural effect."}]}
// The twenty-five architectural Tile element types.
type TileDataType of enumeration {
    TileDataType_FP64,
    TileDataType_FP32,
    TileDataType_TF32,
    TileDataType_HF32,
    TileDataType_FP16,
    TileDataType_BF16,
    TileDataType_HiF8,
    TileDataType_E4M3,
    TileDataType_E5M2,
    TileDataType_E3M2,
    TileDataType_E2M3,
    TileDataType_E2M1X2,
    TileDataType_E1M2X2,
    TileDataType_E8M0,
    TileDataType_HiF4X2,
    TileDataType_S64,
    TileDataType_S32,
    TileDataType_S16,
    TileDataType_S8,
    TileDataType_S4X2,
    TileDataType_U64,
    TileDataType_U32,
    TileDataType_U16,
    TileDataType_U8,
    TileDataType_U4X2
};

// Decode the five-bit DataType field. The first result is FALSE for the
// reserved codes 15, 21..23 and 29..31 listed in PTO-FIELD-BLOCK-DATATYPE.
pure func TileDataTypeOfCode(code: bits(5)) => (boolean, TileDataType)
begin
    case code of
        when '00000' => return (TRUE, TileDataType_FP64);
        when '00001' => return (TRUE, TileDataType_FP32);
        when '00010' => return (TRUE, TileDataType_TF32);
        when '00011' => return (TRUE, TileDataType_HF32);
        when '00100' => return (TRUE, TileDataType_FP16);
        when '00101' => return (TRUE, TileDataType_BF16);
        when '00110' => return (TRUE, TileDataType_HiF8);
        when '00111' => return (TRUE, TileDataType_E4M3);
        when '01000' => return (TRUE, TileDataType_E5M2);
        when '01001' => return (TRUE, TileDataType_E3M2);
        when '01010' => return (TRUE, TileDataType_E2M3);
        when '01011' => return (TRUE, TileDataType_E2M1X2);
        when '01100' => return (TRUE, TileDataType_E1M2X2);
        when '01101' => return (TRUE, TileDataType_E8M0);
        when '01110' => return (TRUE, TileDataType_HiF4X2);
        when '10000' => return (TRUE, TileDataType_S64);
        when '10001' => return (TRUE, TileDataType_S32);
        when '10010' => return (TRUE, TileDataType_S16);
        when '10011' => return (TRUE, TileDataType_S8);
        when '10100' => return (TRUE, TileDataType_S4X2);
        when '11000' => return (TRUE, TileDataType_U64);
        when '11001' => return (TRUE, TileDataType_U32);
        when '11010' => return (TRUE, TileDataType_U16);
        when '11011' => return (TRUE, TileDataType_U8);
        when '11100' => return (TRUE, TileDataType_U4X2);
        otherwise => return (FALSE, TileDataType_FP64);
    end;
end;
