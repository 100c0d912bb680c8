// PTO-TEST: {"id":"PTO-AVS-TILE-TADD-STATIC-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TADD.asl","requirements":["PTO-INST-TILE-TADD"],"kind":"static-invariant","summary":"TADD selector, engine and handler agree with its catalog record","pass_condition":"every selector, alias and handler assertion holds","related_sources":["asl/tile/model/dispatch/top-level.asl","asl/arch/overview/instruction-classification.asl"]}
func main() => integer
begin
    // TADD: TEPL Mode 0, Function 0, engine VEC.
    let selector = TileTeplSelector(0, 0);
    assert selector == 0;
    assert TileSelectorAssigned(selector);
    assert TileOperationOfSelector(selector) == TileOperation_TADD;
    assert TileEngineOfOperation(TileOperation_TADD) == TileEngine_VEC;
    assert TileTEPLAliasAcceptsOperation(TileTEPLAlias_VEC, TileOperation_TADD);
    assert TileTEPLAliasAcceptsOperation(TileTEPLAlias_TEPL, TileOperation_TADD);
    assert !TileTEPLAliasAcceptsOperation(TileTEPLAlias_SFU, TileOperation_TADD);
    assert InstructionContractOperation_TADD() == TileOperation_TADD;
    assert InstructionContractHandler_TADD() == TileHandler_ExecuteTileBinary;
    assert TileHandlerOfOperation(TileOperation_TADD) == TileHandler_ExecuteTileBinary;
    return 0;
end;
