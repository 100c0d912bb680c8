// PTO-TEST: {"id":"PTO-AVS-TILE-TMUL-STATIC-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl","requirements":["PTO-INST-TILE-TMUL"],"kind":"static-invariant","summary":"TMUL selector, engine and handler agree with its catalog record","pass_condition":"every selector, alias and handler assertion holds","related_sources":["asl/tile/model/dispatch/top-level.asl","asl/arch/overview/instruction-classification.asl"]}
func main() => integer
begin
    // TMUL: TEPL Mode 0, Function 2, engine VEC.
    let selector = TileTeplSelector(0, 2);
    assert selector == 2;
    assert TileSelectorAssigned(selector);
    assert TileOperationOfSelector(selector) == TileOperation_TMUL;
    assert TileEngineOfOperation(TileOperation_TMUL) == TileEngine_VEC;
    assert TileTEPLAliasAcceptsOperation(TileTEPLAlias_VEC, TileOperation_TMUL);
    assert TileTEPLAliasAcceptsOperation(TileTEPLAlias_TEPL, TileOperation_TMUL);
    assert !TileTEPLAliasAcceptsOperation(TileTEPLAlias_SFU, TileOperation_TMUL);
    assert InstructionContractOperation_TMUL() == TileOperation_TMUL;
    assert InstructionContractHandler_TMUL() == TileHandler_ExecuteTileBinary;
    assert TileHandlerOfOperation(TileOperation_TMUL) == TileHandler_ExecuteTileBinary;
    return 0;
end;
