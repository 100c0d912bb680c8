// PTO-TEST: {"id":"PTO-AVS-TILE-TMUL-ALIAS-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl","requirements":["PTO-INST-TILE-TMUL","PTO-TMUL-CONTRACT-001"],"kind":"state-transition","summary":"TMUL reads both factors before a destination that aliases the left factor is written","pass_condition":"each product uses the left factor as it was before the operation","related_sources":["asl/tile/model/legality/dtype-layout.asl"]}
func main() => integer
begin
    ResetProfileState();
    // U64, 128 bytes, 4 columns: 4 physical rows; valid region 1 x 2.
    ConfigureTile(0, 128, 4, 4, 1, 2, TileDataType_U64,
        TileLayout_RowMajor, TileLocation_Any);
    ConfigureTile(1, 128, 4, 4, 1, 2, TileDataType_U64,
        TileLayout_RowMajor, TileLocation_Any);
    WriteTileElement(0, 0, 0, Zeros{PTO_XLEN} + 6);
    WriteTileElement(0, 0, 1, Zeros{PTO_XLEN} + 9);
    WriteTileElement(1, 0, 0, Zeros{PTO_XLEN} + 4);
    WriteTileElement(1, 0, 1, Zeros{PTO_XLEN} + 10);

    // Destination 0 is also the left factor.
    assert InstructionContractOperandsLegal_TMUL(0, 0, 1);
    InstructionContractExecute_TMUL(0, 0, 1);
    assert ReadTileElement(0, 0, 0) == Zeros{PTO_XLEN} + 24;
    assert ReadTileElement(0, 0, 1) == Zeros{PTO_XLEN} + 90;
    return 0;
end;
