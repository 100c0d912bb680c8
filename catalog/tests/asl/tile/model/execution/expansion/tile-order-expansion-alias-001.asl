// PTO-TEST: {"id":"PTO-AVS-TILE-MODEL-EXECUTION-EXPANSION-ALIAS-001","source":"asl/tile/model/execution/expansion.asl","requirements":["PTO-TCOLEXPAND-CONTRACT-001"],"kind":"ordering","summary":"a row expansion whose destination aliases its source reads the old column","pass_condition":"every destination element equals the old value of its row's first element","related_sources":["asl/tile/model/legality/reduction-and-expansion.asl"]}
func main() => integer
begin
    ResetProfileState();
    ConfigureTile(0, 128, 16, 4, 2, 1, TileDataType_U16,
        TileLayout_RowMajor, TileLocation_Any);
    WriteTileElement(0, 0, 0, Zeros{PTO_XLEN} + 5);
    WriteTileElement(0, 1, 0, Zeros{PTO_XLEN} + 9);
    ExecuteTileExpand(TileExpand_COPY, TileAxis_Row, 0, 0, 0);
    assert ReadTileElement(0, 0, 0) == Zeros{PTO_XLEN} + 5;
    assert ReadTileElement(0, 1, 0) == Zeros{PTO_XLEN} + 9;
    return 0;
end;
