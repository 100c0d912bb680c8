// PTO-TEST: {"id":"PTO-AVS-TILE-MODEL-LEGALITY-REDUCTION-AND-EXPANSION-TYPES-001","source":"asl/tile/model/legality/reduction-and-expansion.asl","requirements":["PTO-TCOLEXPAND-CONTRACT-001"],"kind":"boundary","summary":"an expansion rejects a destination whose DataType differs from the source","pass_condition":"a U16 source with a U32 destination fails the operand check","related_sources":["asl/tile/reduce-and-expand/column-expansion/TCOLEXPAND.asl"]}
func main() => integer
begin
    ResetProfileState();
    ConfigureTile(0, 128, 16, 4, 1, 4, TileDataType_U16,
        TileLayout_RowMajor, TileLocation_Any);
    for column = 0 to 3 looplimit 4 do
        WriteTileElement(0, 0, column, Zeros{PTO_XLEN} + 1);
    end;
    ConfigureTile(1, 128, 8, 4, 2, 4, TileDataType_U32,
        TileLayout_RowMajor, TileLocation_Any);
    assert !TileOperandsLegal_ExecuteTileExpand(TileExpand_COPY, TileAxis_Column, 1, 0, 0);
    return 0;
end;
