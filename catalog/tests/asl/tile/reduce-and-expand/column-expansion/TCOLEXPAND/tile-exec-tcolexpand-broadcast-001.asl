// PTO-TEST: {"id":"PTO-AVS-TILE-TCOLEXPAND-BROADCAST-001","source":"asl/tile/reduce-and-expand/column-expansion/TCOLEXPAND.asl","requirements":["PTO-INST-TILE-TCOLEXPAND","PTO-TCOLEXPAND-CONTRACT-001"],"kind":"execution","summary":"TCOLEXPAND copies the one-row source into three destination rows","pass_condition":"every destination row equals the source row bit for bit and the source is unchanged","related_sources":["asl/tile/model/execution/expansion.asl","asl/tile/model/legality/reduction-and-expansion.asl"]}
func main() => integer
begin
    ResetProfileState();
    // U16, 128 bytes, 4 columns: 16 physical rows.
    ConfigureTile(0, 128, 16, 4, 1, 4, TileDataType_U16,
        TileLayout_RowMajor, TileLocation_Any);
    for column = 0 to 3 looplimit 4 do
        WriteTileElement(0, 0, column, Zeros{PTO_XLEN} + (column + 1) * 257);
    end;
    ConfigureTile(1, 128, 16, 4, 3, 4, TileDataType_U16,
        TileLayout_RowMajor, TileLocation_Any);

    InstructionContractExecute_TCOLEXPAND(1, 0);
    for row = 0 to 2 looplimit 3 do
        for column = 0 to 3 looplimit 4 do
            assert ReadTileElement(1, row, column) == ReadTileElement(0, 0, column);
        end;
    end;
    assert ReadTileElement(0, 0, 3) == Zeros{PTO_XLEN} + 1028;
    return 0;
end;
