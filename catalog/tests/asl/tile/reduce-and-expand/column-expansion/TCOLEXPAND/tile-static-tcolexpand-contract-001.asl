// PTO-TEST: {"id":"PTO-AVS-TILE-TCOLEXPAND-STATIC-001","source":"asl/tile/reduce-and-expand/column-expansion/TCOLEXPAND.asl","requirements":["PTO-INST-TILE-TCOLEXPAND"],"kind":"static-invariant","summary":"TCOLEXPAND selector, engine and handler agree with its catalog record","pass_condition":"every selector, alias and handler assertion holds","related_sources":["asl/tile/model/dispatch/top-level.asl","asl/arch/overview/instruction-classification.asl"]}
func main() => integer
begin
    // TCOLEXPAND: TEPL Mode 2, Function 20, engine SFU.
    let selector = TileTeplSelector(2, 20);
    assert selector == 84;
    assert TileSelectorAssigned(selector);
    assert TileOperationOfSelector(selector) == TileOperation_TCOLEXPAND;
    assert TileEngineOfOperation(TileOperation_TCOLEXPAND) == TileEngine_SFU;
    assert TileTEPLAliasAcceptsOperation(TileTEPLAlias_SFU, TileOperation_TCOLEXPAND);
    assert TileTEPLAliasAcceptsOperation(TileTEPLAlias_TEPL, TileOperation_TCOLEXPAND);
    assert !TileTEPLAliasAcceptsOperation(TileTEPLAlias_VEC, TileOperation_TCOLEXPAND);
    assert InstructionContractOperation_TCOLEXPAND() == TileOperation_TCOLEXPAND;
    assert InstructionContractHandler_TCOLEXPAND() == TileHandler_ExecuteTileExpand;
    assert TileHandlerOfOperation(TileOperation_TCOLEXPAND) == TileHandler_ExecuteTileExpand;
    return 0;
end;
