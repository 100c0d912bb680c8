// PTO-INSTRUCTION: {"assembly":["L.BSTOP"],"block":[],"catalog_indices":[1],"catalog_records":[{"asm":"L.BSTOP","constraints":[],"encoding":[{"index":0,"mask":"0xffffffff","match":"0x0000000f","width_bits":32},{"index":1,"mask":"0xffffffff","match":"0x00000001","width_bits":32}],"encoding_kind":"L64","fields":[],"form_id":"l_bstop_64_94c7f0a5e8b3","length_bits":64,"mnemonic":"L.BSTOP","semantic_family":"CMD","semantic_group":"Bundle Split","semantic_handler":"ExecuteBundleStop","semantic_summary":"Commits the current bundle and continues at the continuation it selected.","status":"accepted"}],"classification":["lifecycle"],"contract":{"block_composition":["none"],"canonical_assembly":["L.BSTOP"],"defaults":["The form has no encoded operand field, so there is no operand default."],"encoding_class":"standalone-encoded","examples":["L.BSTOP"],"exceptions":["Without an active block, Fault_BundleControl is raised.","Schema, applicability, execution or final-PC faults are raised before block-private state is cleared."],"field_contracts":{},"field_zero_meanings":{},"legality":["The low word must be exactly 0x0000000f and the high word exactly 0x00000001."],"memory_effects":["All architecture-visible memory effects of the active block are committed before the continuation is chosen."],"operands":[],"ordering":["Check the active block and its final BARG continuation, run the block operation, then pick BARG.BPCN or the sequential PC and clear block-private state."],"standalone_opcode":true,"state_effects":["Commits the active block and selects BARG.BPCN for DIRECT, CALL, IND, ICALL, RET or a taken COND; otherwise the sequential PC is chosen.","After a successful commit, BARG, BPC, descriptor fields, dimensions, bindings, attributes and active state are cleared."]},"depends_on":["PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING"],"id":"PTO-BLOCK-L-BSTOP","mnemonic":"L.BSTOP","summary":"Commits the current bundle and continues at the continuation it selected.","surface":"block"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-L-BSTOP-DECISION-BINDING-001
// ndf: kind=contract level=L1 layer=block status=accepted
// L.BSTOP MUST be recognized only from its two fixed 32-bit words, low word
// first, and MUST perform the same commit as every other bundle stop. The
// assembly, legality, effects, ordering and fault boundaries in this record
// MUST hold, and the operation region of this file MUST be the executable
// binding of every accepted decision naming L.BSTOP.
// Decisions: ADR-0060.
// NDF-END: PTO-L-BSTOP-DECISION-BINDING-001
// DOC-BEGIN: decode
readonly func InstructionContractMatches_L_BSTOP(
    operation: CommandOperation) => boolean
begin
    return operation == CommandOperation_l_bstop_64_94c7f0a5e8b3;
end;

// Both words are fully fixed; the low word is fetched first.
pure func InstructionContractWordsMatch_L_BSTOP(
    low: bits(32),
    high: bits(32)) => boolean
begin
    return UInt(low) == 15 && UInt(high) == 1;
end;
// DOC-END: decode
// DOC-BEGIN: operation
readonly func InstructionContractHandler_L_BSTOP() => CommandSemanticHandler
begin
    return CommandHandler_ExecuteBundleStop;
end;

// L.BSTOP shares the common stop: it commits and then clears header state.
pure func InstructionContractCommitsActiveBundle_L_BSTOP() => boolean
begin
    return TRUE;
end;

pure func InstructionContractClearsHeaderState_L_BSTOP() => boolean
begin
    return TRUE;
end;
// DOC-END: operation
