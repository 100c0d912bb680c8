// PTO-TEST: {"id":"PTO-AVS-BLOCK-L-BSTOP-COMMIT-001","source":"asl/block/lifecycle/L.BSTOP.asl","requirements":["PTO-INST-BLOCK-L-BSTOP","PTO-L-BSTOP-DECISION-BINDING-001"],"kind":"state-transition","summary":"L.BSTOP shares the common stop: it commits and then clears header state","pass_condition":"the handler is ExecuteBundleStop, both commit predicates hold, and an executed L.BSTOP commits the open TSQRT bundle, clears its header state and advances the PC by 8","related_sources":[]}
func main() => integer
begin
    assert InstructionContractHandler_L_BSTOP() == CommandHandler_ExecuteBundleStop;
    assert InstructionContractCommitsActiveBundle_L_BSTOP();
    assert InstructionContractClearsHeaderState_L_BSTOP();

    // BSTART.SFU TSQRT, FP32, then L.BSTOP (low word 0x0000000f first).
    ResetProfileState();
    let tsqrt_fp32 = '00001001010100011001000110000001';
    assert ExecuteCommandInstruction(Zeros{32} :: tsqrt_fp32, 32) == ExecutionStatus_Retired;
    assert _BundleActive && _BundleTileOperation == TileOperation_TSQRT;
    let low = '00000000000000000000000000001111';
    let high = '00000000000000000000000000000001';
    assert ExecuteCommandInstruction(high :: low, 64) == ExecutionStatus_Retired;
    assert _BundlesCommitted == 1 && !_BundleActive;
    assert _BundleKind == BundleKind_Standard;
    assert _BundleTileOperation == TileOperation_TADD;
    assert _BundleDataType == TileDataType_FP64;
    assert _PC == Zeros{64} + 12;
    return 0;
end;
