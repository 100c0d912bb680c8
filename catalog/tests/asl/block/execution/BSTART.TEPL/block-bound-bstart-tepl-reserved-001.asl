// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-TEPL-RESERVED-001","source":"asl/block/execution/BSTART.TEPL.asl","requirements":["PTO-INST-BLOCK-BSTART-TEPL","PTO-BSTART-TEPL-DECISION-BINDING-001"],"kind":"boundary","summary":"BSTART.TEPL rejects selector holes and reserved DataType codes","pass_condition":"the hole 0x005 is unassigned and codes 15, 21 and 31 decode to no DataType","related_sources":["asl/tile/model/dispatch/top-level.asl","asl/arch/data-types/tile-data-types.asl"]}
func main() => integer
begin
    assert !TileSelectorAssigned(TileTeplSelector(0, 5));
    assert TileSelectorAssigned(TileTeplSelector(2, 20));
    let (a15, t15) = TileDataTypeOfCode('01111');
    let (a21, t21) = TileDataTypeOfCode('10101');
    let (a31, t31) = TileDataTypeOfCode('11111');
    assert !a15 && !a21 && !a31;
    assert InstructionContractAcceptsEngineAlias_BSTART_TEPL(TileEngine_VEC);
    assert InstructionContractAcceptsEngineAlias_BSTART_TEPL(TileEngine_SFU);
    assert !InstructionContractAcceptsEngineAlias_BSTART_TEPL(TileEngine_CUBE);
    return 0;
end;
