// PTO-TEST: {"id":"PTO-AVS-TILE-TSQRT-STATIC-001","source":"asl/tile/elementwise-tile-tile/transcendental/TSQRT.asl","requirements":["PTO-INST-TILE-TSQRT"],"kind":"static-invariant","summary":"TSQRT selector, engine and handler agree with its catalog record","pass_condition":"every selector, alias and handler assertion holds","related_sources":["asl/tile/model/dispatch/top-level.asl","asl/arch/overview/instruction-classification.asl"]}
func main() => integer
begin
    // TSQRT: TEPL Mode 0, Function 21, engine SFU.
    let selector = TileTeplSelector(0, 21);
    assert selector == 21;
    assert TileSelectorAssigned(selector);
    assert TileOperationOfSelector(selector) == TileOperation_TSQRT;
    assert TileEngineOfOperation(TileOperation_TSQRT) == TileEngine_SFU;
    assert TileTEPLAliasAcceptsOperation(TileTEPLAlias_SFU, TileOperation_TSQRT);
    assert TileTEPLAliasAcceptsOperation(TileTEPLAlias_TEPL, TileOperation_TSQRT);
    assert !TileTEPLAliasAcceptsOperation(TileTEPLAlias_VEC, TileOperation_TSQRT);
    assert InstructionContractOperation_TSQRT() == TileOperation_TSQRT;
    assert InstructionContractHandler_TSQRT() == TileHandler_ExecuteTileUnary;
    assert TileHandlerOfOperation(TileOperation_TSQRT) == TileHandler_ExecuteTileUnary;
    return 0;
end;
