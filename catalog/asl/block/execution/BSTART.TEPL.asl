// PTO-INSTRUCTION: {"assembly":["BSTART.TEPL Mode, Function, DataType"],"block":[],"catalog_indices":[0],"catalog_records":[{"accepted_assembly_mnemonics":["BSTART.TEPL","BSTART.VEC","BSTART.SFU"],"asm":"BSTART.TEPL Mode, Function, DataType","canonical_assembly_by_engine":{"SFU":"BSTART.SFU","VEC":"BSTART.VEC"},"carrier_mnemonic":"BSTART.TEPL","constraints":[{"field":"DataType","operator":"one-of","values":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,16,17,18,19,20,24,25,26,27,28]}],"encoding":[{"index":0,"mask":"0x000fffff","match":"0x00019181","width_bits":32}],"encoding_kind":"L32","fields":[{"name":"DataType","pieces":[{"instruction_lsb":27,"value_lsb":0,"width":5}],"signedness":"encoding-defined","width":5},{"name":"Mode","pieces":[{"instruction_lsb":25,"value_lsb":0,"width":2}],"signedness":"encoding-defined","width":2},{"name":"Function","pieces":[{"instruction_lsb":20,"value_lsb":0,"width":5}],"signedness":"encoding-defined","width":5}],"form_id":"bstart_tepl_32_d022db6dacb3","length_bits":32,"mnemonic":"BSTART.TEPL","semantic_family":"CMD","semantic_group":"Bundle Split","semantic_handler":"ExecuteBundleStart","semantic_summary":"Ends the current bundle, opens the next bundle descriptor and chooses how that bundle transfers and executes.","status":"accepted"}],"classification":["execution"],"contract":{"block_composition":["BSTART.TEPL carries the Mode:Function selector unchanged. It retires an active predecessor, installs one Tile-element block descriptor and accepts the VEC or SFU operation assigned to the selector.","BSTART.TEPL is still accepted as input, but canonical assembly and disassembly print BSTART.VEC or BSTART.SFU according to the operation's engine."],"canonical_assembly":["BSTART.TEPL Mode, Function, DataType"],"defaults":["No operand field can be omitted; each encoded field holds the value written in the form."],"encoding_class":"standalone-encoded","examples":["BSTART.TEPL 0, 2, U64"],"exceptions":["A reserved DataType code, an unassigned Mode:Function selector, a non-TEPL operation or an invalid descriptor raises a fault before the predecessor retires or a new BARG appears.","An assigned selector whose operation belongs to neither VEC nor SFU is illegal on this carrier."],"field_contracts":{"DataType":{"ref":"PTO-FIELD-BLOCK-DATATYPE"}},"field_zero_meanings":{"DataType":"Code zero selects FP64."},"legality":["Mode:Function forms a seven-bit selector: Mode occupies bits 6:5 and Function bits 4:0.","Only selectors assigned to TEPL-carried operations are legal; an unassigned selector is rejected before any effect.","DataType accepts 0..14, 16..20 and 24..28; 15, 21..23 and 29..31 are reserved.","BSTART.TEPL is accepted only as compatibility input; canonical output uses the VEC or SFU alias of the operation."],"memory_effects":["none"],"operands":[{"field":"DataType","role":"element data type of the tile operation"},{"field":"Mode","role":"execution mode part of the selector"},{"field":"Function","role":"function part of the selector"}],"ordering":["Carrier fields, selector, operation, engine and descriptor are all checked before the predecessor retires and the BARG is published."],"standalone_opcode":true,"state_effects":["After the predecessor retires, the selected Tile-element descriptor and a BARG whose BlockType names a Tile-element block are installed.","The selected operation runs only when BSTOP or the next BSTART commits the finished block."]},"depends_on":["PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING","PTO-ARCH-OVERVIEW-INSTRUCTION-CLASSIFICATION"],"id":"PTO-BLOCK-BSTART-TEPL","mnemonic":"BSTART.TEPL","summary":"Ends the current bundle, opens the next bundle descriptor and chooses how that bundle transfers and executes.","surface":"block"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-BSTART-TEPL-DECISION-BINDING-001
// ndf: kind=contract level=L1 layer=block status=accepted
// BSTART.TEPL MUST realize the canonical assembly, encoded legality,
// defaults, state and memory effects, ordering and fault boundaries stated in
// the record of this owner. The operation region of this file MUST be the
// executable binding of every accepted decision that names BSTART.TEPL.
// Decisions: ADR-0035, ADR-0052, ADR-0057, ADR-0059.
// NDF-END: PTO-BSTART-TEPL-DECISION-BINDING-001
// DOC-BEGIN: decode
readonly func InstructionContractMatches_BSTART_TEPL(
    operation: CommandOperation) => boolean
begin
    return operation == CommandOperation_bstart_tepl_32_d022db6dacb3;
end;

// Bits 26:20 hold Mode:Function, bits 31:27 hold DataType.
pure func InstructionContractSelector_BSTART_TEPL(word: bits(32)) => bits(7)
begin
    return word[26:20];
end;

pure func InstructionContractDataType_BSTART_TEPL(word: bits(32)) => bits(5)
begin
    return word[31:27];
end;
// DOC-END: decode
// DOC-BEGIN: operation
readonly func InstructionContractHandler_BSTART_TEPL() => CommandSemanticHandler
begin
    return CommandHandler_ExecuteBundleStart;
end;

// The carrier itself accepts both Tile-element engines.
pure func InstructionContractAcceptsEngineAlias_BSTART_TEPL(
    engine: TileExecutionEngine) => boolean
begin
    return TileEngineHasCanonicalBundleStartAlias(engine);
end;

pure func InstructionContractAcceptsTileOperation_BSTART_TEPL(
    operation: TileOperation) => boolean
begin
    return TileTEPLAliasAcceptsOperation(TileTEPLAlias_TEPL, operation);
end;
// DOC-END: operation
