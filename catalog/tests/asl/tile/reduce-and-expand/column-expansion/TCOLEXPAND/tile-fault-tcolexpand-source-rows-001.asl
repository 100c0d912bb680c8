// PTO-TEST: {"id":"PTO-AVS-TILE-TCOLEXPAND-SOURCE-ROWS-001","source":"asl/tile/reduce-and-expand/column-expansion/TCOLEXPAND.asl","requirements":["PTO-TCOLEXPAND-CONTRACT-001"],"kind":"fault","summary":"TCOLEXPAND rejects a broadcast source with more than one valid row","pass_condition":"the operand check fails for a two-row source, and executing the operation records Fault_TileLegality and leaves the destination undefined","related_sources":["asl/tile/model/legality/reduction-and-expansion.asl"]}
func main() => integer
begin
    ResetProfileState();
    ConfigureTile(0, 128, 16, 4, 2, 4, TileDataType_U16,
        TileLayout_RowMajor, TileLocation_Any);
    for row = 0 to 1 looplimit 2 do
        for column = 0 to 3 looplimit 4 do
            WriteTileElement(0, row, column, Zeros{PTO_XLEN} + 7);
        end;
    end;
    ConfigureTile(1, 128, 16, 4, 3, 4, TileDataType_U16,
        TileLayout_RowMajor, TileLocation_Any);
    assert !InstructionContractOperandsLegal_TCOLEXPAND(1, 0);
    assert ExecuteTileInstruction(TileOperation_TCOLEXPAND, 1, 0, 0) == ExecutionStatus_Faulted;
    assert LastFault() == Fault_TileLegality;
    for row = 0 to 2 looplimit 3 do
        for column = 0 to 3 looplimit 4 do
            assert !TileElementDefined(1, row, column);
        end;
    end;
    return 0;
end;
