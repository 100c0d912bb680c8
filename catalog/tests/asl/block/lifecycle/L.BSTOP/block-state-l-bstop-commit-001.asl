// PTO-TEST: {"id":"PTO-AVS-BLOCK-L-BSTOP-COMMIT-001","source":"asl/block/lifecycle/L.BSTOP.asl","requirements":["PTO-INST-BLOCK-L-BSTOP","PTO-L-BSTOP-DECISION-BINDING-001"],"kind":"state-transition","summary":"L.BSTOP shares the common stop: it commits and then clears header state","pass_condition":"the handler is ExecuteBundleStop and both commit predicates hold","related_sources":[]}
func main() => integer
begin
    assert InstructionContractHandler_L_BSTOP() == CommandHandler_ExecuteBundleStop;
    assert InstructionContractCommitsActiveBundle_L_BSTOP();
    assert InstructionContractClearsHeaderState_L_BSTOP();
    return 0;
end;
