// PTO-TEST: {"id":"PTO-AVS-TILE-TADD-PADDING-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TADD.asl","requirements":["PTO-INST-TILE-TADD","PTO-TADD-CONTRACT-001"],"kind":"state-transition","summary":"TADD writes sums in the valid region and Max padding outside it","pass_condition":"valid elements hold the sums and the padded element is defined with the S32 maximum","related_sources":["asl/tile/model/legality/dtype-layout.asl"]}
func main() => integer
begin
    ResetProfileState();
    // 128 bytes, 4 columns of S32: 8 physical rows; valid region 1 x 3.
    // Tiles 0 and 1 are the sources, tile 2 the destination.
    for index = 0 to 2 looplimit 3 do
        ConfigureTile(index as TileIndex, 128, 8, 4, 1, 3,
            TileDataType_S32, TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(0, 0, 0, Zeros{PTO_XLEN} + 40);
    WriteTileElement(0, 0, 1, Zeros{PTO_XLEN} + 1);
    WriteTileElement(0, 0, 2, Zeros{PTO_XLEN} + 100);
    WriteTileElement(1, 0, 0, Zeros{PTO_XLEN} + 2);
    WriteTileElement(1, 0, 1, Zeros{PTO_XLEN} + 1);
    WriteTileElement(1, 0, 2, Zeros{PTO_XLEN} + 23);
    // PadValue code 01 selects Max.
    SetBundleDataAttributeState(Zeros{5} + 17, Zeros{5}, '01',
        Zeros{3}, Zeros{3}, FALSE, FALSE);
    _BundleDataAttributesPresent = TRUE;

    InstructionContractExecute_TADD(2, 0, 1);
    assert ReadTileElement(2, 0, 0) == Zeros{PTO_XLEN} + 42;
    assert ReadTileElement(2, 0, 1) == Zeros{PTO_XLEN} + 2;
    assert ReadTileElement(2, 0, 2) == Zeros{PTO_XLEN} + 123;
    assert TileElementDefined(2, 0, 3);
    assert ReadTileElement(2, 0, 3)[31:0] == '01111111111111111111111111111111';
    return 0;
end;
