// PTO-TEST: {"id":"PTO-AVS-TILE-TSQRT-SPECIAL-001","source":"asl/tile/elementwise-tile-tile/transcendental/TSQRT.asl","requirements":["PTO-INST-TILE-TSQRT","PTO-TSQRT-CONTRACT-001"],"kind":"execution","summary":"TSQRT keeps signed zero and +inf, and turns a negative input into a quiet NaN","pass_condition":"results are 2.0, -0.0, +inf and the FP32 quiet NaN, and only the invalid flag is set","related_sources":["asl/tile/model/legality/dtype-layout.asl"]}
func main() => integer
begin
    ResetProfileState();
    // FP32, 128 bytes, 8 columns: 4 physical rows; valid region 1 x 4.
    for index = 0 to 1 looplimit 2 do
        ConfigureTile(index as TileIndex, 128, 4, 8, 1, 4,
            TileDataType_FP32, TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(0, 0, 0, Zeros{PTO_XLEN} + 0x40800000);  // 4.0
    WriteTileElement(0, 0, 1, Zeros{PTO_XLEN} + 0x80000000);  // -0.0
    WriteTileElement(0, 0, 2, Zeros{PTO_XLEN} + 0x7f800000);  // +inf
    WriteTileElement(0, 0, 3, Zeros{PTO_XLEN} + 0xbf800000);  // -1.0

    InstructionContractExecute_TSQRT(1, 0);
    assert ReadTileElement(1, 0, 0) == Zeros{PTO_XLEN} + 0x40000000;
    assert ReadTileElement(1, 0, 1) == Zeros{PTO_XLEN} + 0x80000000;
    assert ReadTileElement(1, 0, 2) == Zeros{PTO_XLEN} + 0x7f800000;
    assert ReadTileElement(1, 0, 3) == Zeros{PTO_XLEN} + 0x7fc00000;
    assert NumericStatusFlags() == Zeros{5} + 1;
    return 0;
end;
