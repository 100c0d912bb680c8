// PTO-TEST: {"id":"PTO-AVS-BLOCK-L-BSTOP-INACTIVE-001","source":"asl/block/lifecycle/L.BSTOP.asl","requirements":["PTO-INST-BLOCK-L-BSTOP","PTO-L-BSTOP-DECISION-BINDING-001"],"kind":"fault","summary":"L.BSTOP without an active bundle has nothing to commit and raises Fault_BundleControl","pass_condition":"an L.BSTOP executed with no bundle open faults with Fault_BundleControl, commits nothing and leaves the PC at the instruction; inside an entered bundle body it commits and leaves the body","related_sources":["asl/block/model/schema/profile-encoding.asl"]}
func main() => integer
begin
    let low = '00000000000000000000000000001111';
    let high = '00000000000000000000000000000001';
    ResetProfileState();
    WriteTPC(Zeros{64} + 0x40);
    assert ExecuteCommandInstruction(high :: low, 64) == ExecutionStatus_Faulted;
    assert LastFault() == Fault_BundleControl;
    assert _BundlesCommitted == 0 && !_BundleActive;
    assert _PC == Zeros{64} + 0x40;

    // A standard bundle opened by its header, its body entered, then stopped.
    ResetProfileState();
    BeginBundle(BundleKind_Standard, BundleTransfer_Fallthrough, Zeros{64},
        Zeros{64}, Zeros{64}, FALSE);
    EnterBundleBody();
    assert _BundleActive && _BundleBodyActive && LastFault() == Fault_None;
    assert ExecuteCommandInstruction(high :: low, 64) == ExecutionStatus_Retired;
    assert _BundlesCommitted == 1 && !_BundleActive && !_BundleBodyActive;
    assert _PC == Zeros{64} + 8;
    return 0;
end;
