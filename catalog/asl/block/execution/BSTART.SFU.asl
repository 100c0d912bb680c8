// PTO-INSTRUCTION: {"alias_engine":"SFU","alias_of":"BSTART.TEPL","assembly":["BSTART.SFU TileOp, DataType"],"block":[],"catalog_indices":[],"catalog_records":[],"classification":["execution"],"contract":{"block_composition":["TileOp resolves to one assigned TEPL Mode:Function selector whose engine is SFU; the alias contributes no encoding bits and owns nothing.","The resulting block follows the descriptor, header, commit and rollback rules of BSTART.TEPL."],"canonical_assembly":["BSTART.SFU TileOp, DataType"],"defaults":["BSTART.SFU is the SFU engine alias of BSTART.TEPL and has no encoding or defaults of its own."],"encoding_class":"encoding-alias","examples":["BSTART.SFU TSQRT, FP32"],"exceptions":["An unknown TileOp, a selector hole, a VEC, TLSU or CUBE operation, a reserved DataType or an invalid descriptor raises a fault before the predecessor retires or a new BARG appears."],"field_contracts":{"DataType":{"ref":"PTO-FIELD-BLOCK-DATATYPE"}},"field_zero_meanings":{},"legality":["TileOp must name an assigned direct operation that BSTART.TEPL carries and that runs on SFU.","The resolved Mode:Function and DataType bits are exactly the BSTART.TEPL carrier bits.","Canonical assembly and disassembly print BSTART.SFU for every SFU operation."],"memory_effects":["none"],"operands":[{"field":"TileOp","role":"SFU operation mnemonic that resolves the Mode:Function selector"},{"field":"DataType","role":"element data type of the tile operation"}],"ordering":["Alias resolution, the SFU engine check, carrier fields and descriptor legality precede predecessor retirement and BARG publication."],"standalone_opcode":false,"state_effects":["Installs exactly the BSTART.TEPL descriptor resolved from TileOp and DataType; the alias adds no state.","The SFU operation runs when the block commits."]},"depends_on":["PTO-BLOCK-BSTART-TEPL"],"id":"PTO-BLOCK-BSTART-SFU","mnemonic":"BSTART.SFU","summary":"Canonical bundle-start spelling for operations that run on the SFU engine.","surface":"block"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-BSTART-SFU-DECISION-BINDING-001
// ndf: kind=contract level=L1 layer=block status=accepted
// BSTART.SFU MUST behave exactly as BSTART.TEPL for every operation whose engine
// is SFU, and MUST reject every other operation before any effect. The
// canonical assembly, legality, defaults, effects, ordering and fault
// boundaries in this record MUST hold, and the operation region of this file
// MUST be the executable binding of every accepted decision naming BSTART.SFU.
// Decisions: ADR-0035, ADR-0057.
// NDF-END: PTO-BSTART-SFU-DECISION-BINDING-001
// DOC-BEGIN: decode
// The alias owns no encoding: it decodes as the TEPL carrier form.
readonly func InstructionContractMatches_BSTART_SFU(
    operation: CommandOperation) => boolean
begin
    return InstructionContractMatches_BSTART_TEPL(operation);
end;
// DOC-END: decode
// DOC-BEGIN: operation
readonly func InstructionContractHandler_BSTART_SFU() => CommandSemanticHandler
begin
    return InstructionContractHandler_BSTART_TEPL();
end;

pure func InstructionContractAliasEngine_BSTART_SFU() => TileExecutionEngine
begin
    return TileEngine_SFU;
end;

pure func InstructionContractAcceptsTileOperation_BSTART_SFU(
    operation: TileOperation) => boolean
begin
    return TileTEPLAliasAcceptsOperation(TileTEPLAlias_SFU, operation);
end;
// DOC-END: operation
