// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-TEPL-RESERVED-001","source":"asl/block/execution/BSTART.TEPL.asl","requirements":["PTO-INST-BLOCK-BSTART-TEPL","PTO-BSTART-TEPL-DECISION-BINDING-001"],"kind":"boundary","summary":"BSTART.TEPL rejects selector holes and reserved DataType codes before any effect","pass_condition":"the hole 0x005 is unassigned, codes 15, 21 and 31 decode to no DataType, and executing either rejected word faults without retiring the open bundle","related_sources":["asl/tile/model/dispatch/top-level.asl","asl/arch/data-types/tile-data-types.asl"]}
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

    // Open a TADD S32 bundle, then try a reserved DataType (15) and the
    // selector hole 0x005: both fault and the open bundle stays as it was.
    ResetProfileState();
    let tadd_s32 = '10001000000000011001000110000001';
    let reserved_type = '01111000001000011001000110000001';
    let selector_hole = '11000000010100011001000110000001';
    assert ExecuteCommandInstruction(Zeros{32} :: tadd_s32, 32) == ExecutionStatus_Retired;
    assert ExecuteCommandInstruction(Zeros{32} :: reserved_type, 32) == ExecutionStatus_Faulted;
    assert LastFault() == Fault_IllegalInstruction;
    assert ExecuteCommandInstruction(Zeros{32} :: selector_hole, 32) == ExecutionStatus_Faulted;
    assert _BundleActive && _BundleTileOperation == TileOperation_TADD;
    assert _BundleDataType == TileDataType_S32 && _BundlesCommitted == 0;
    assert _PC == Zeros{64} + 4;
    return 0;
end;
