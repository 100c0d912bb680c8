// PTO-INSTRUCTION: {"assembly":["TCOLEXPAND <bundle operands>"],"block":["BSTART.SFU TCOLEXPAND, DataType","B.DATR PadValue (optional)","B.DIM LB0=ValidCol","B.DIM LB1=ValidRow (optional)","B.DIM LB2=Col (optional)","B.IOT BroadcastTile, mask=PE_MASK, <last>, ->DstTile<TSize>","BSTOP"],"catalog_indices":[3],"catalog_records":[{"arguments":[{"constant":"TileExpand_COPY"},{"constant":"TileAxis_Column"},{"operand":"destination0"},{"operand":"source0"},{"operand":"source0"}],"command_mnemonic":"BSTART.TEPL","contract_status":"reviewed-complete","datr_contract":{"allowed_nonzero_fields":["PadValueOrByteId"],"pad_union":"pad-value"},"disposition":"accepted-direct-operation","effect_contract":"ExecuteTileExpand","family":"TEPL","fault_contract":"ExecuteTileInstruction","function":20,"legality_handler":"TileOperandsLegal_ExecuteTileExpand","mode":2,"name":"TCOLEXPAND","operands":[{"field":"destination0","role":"new Local same-type numeric destination"},{"field":"source0","role":"persistent Local one-row broadcast source"}],"restart_contract":"CompleteBundleAtWithAcceptedApplicabilityRules","selector":"0x054","semantic_handler":"ExecuteTileExpand","state_effects":["operand:destination0:new-local-same-type-destination","operand:source0:persistent-local-one-row-broadcast-source","runtime:CurrentBundlePadValue:numeric-padding"]}],"classification":["reduce-and-expand","column-expansion"],"contract":{"block_composition":["BSTART.SFU TCOLEXPAND, DataType","B.DATR PadValue (optional)","B.DIM LB0=ValidCol","B.DIM LB1=ValidRow (optional)","B.DIM LB2=Col (optional)","B.IOT BroadcastTile, mask=PE_MASK, <last>, ->DstTile<TSize>","BSTOP"],"canonical_assembly":["TCOLEXPAND <bundle operands>"],"defaults":["LB0 must be present and gives a nonzero ValidCol; without LB1 ValidRow is 1, and without LB2 the physical Col equals ValidCol. A dimension that is present must not be zero.","Without B.DATR the PadValue is Null; an explicit PadValue code 00, 01, 10 or 11 selects Zero, Max, Min or Null.","Each valid destination element [r,c] is an exact bit copy of BroadcastTile[0,c].","No conversion, rounding, saturation, canonicalization or status update takes place."],"encoding_class":"selector-encoded-block-operation","examples":["BSTART.SFU TCOLEXPAND, U16; B.DIM LB0=ValidCol; B.DIM LB1=ValidRow (optional); B.IOT BroadcastTile, mask=PE_MASK, <last>, ->DstTile<TSize>; BSTOP"],"exceptions":["A malformed binding stream, a B.IOR or B.IOS, an absent or zero dimension, an unsupported DataType, a non-row-major or undefined source, an invalid source encoding or a source geometry mismatch raises Fault_TileLegality before any effect.","A destination shape that cannot be represented, a TSize that is too small, no free renamed destination or exhausted Tile capacity raises Fault_TileAllocation before publication."],"field_contracts":{},"field_zero_meanings":{"B.DATR.PadValueOrByteId":"An encoded zero selects Zero padding when B.DATR is present; leaving B.DATR out selects Null.","B.DIM.LB0":"Zero is rejected: LB0 is mandatory and ValidCol must be nonzero.","B.DIM.LB1":"Leaving LB1 out gives ValidRow 1; an encoded zero is rejected.","B.DIM.LB2":"Leaving LB2 out gives Col equal to ValidCol; an encoded zero is rejected."},"legality":["The TEPL carrier selector Mode 2 Function 20 selects TCOLEXPAND; BSTART.SFU is its canonical spelling and it has no standalone opcode.","One terminating Local B.IOT binds one persistent one-row source and one new Local destination; there is no second full-size source.","DataType is one of FP64, FP32, TF32, HF32, FP16, BF16, E4M3, E5M2, S64, S32, S16, S8, U64, U32, U16, or U8.","Destination and source have the same DataType.","The source has ValidRow 1, and its ValidCol and physical Col equal those of the destination.","The destination geometry is the one derived from B.DIM.","The source is a fully defined row-major numeric Tile whose elements are validly encoded.","Only PadValueOrByteId of B.DATR applies, and B.IOR and B.IOS are illegal.","All operands share one PE_MASK; PE_MASK=0000 is a strict no-op."],"memory_effects":["none"],"operands":[{"field":"destination0","role":"new Local destination of the source's type"},{"field":"source0","role":"persistent one-row Local broadcast source"}],"ordering":["Schema, attribute, dimension, type, descriptor, definedness, encoding, mask, capacity, renaming and storage preflight all finish before the source is captured.","The source persists, and a legal alias reads the old value and writes the new one.","Results, padding definedness and the renamed descriptor become visible atomically; a rejection publishes nothing."],"standalone_opcode":false,"state_effects":["Every valid destination element [r,c] receives the bits of BroadcastTile[0,c].","Physical destination positions outside the valid rectangle take the selected PadValue.","The renamed destination is published as a whole once every element has succeeded."]},"depends_on":["PTO-BLOCK-MODEL-DISPATCH-EXPANSION-SCHEMA","PTO-TILE-MODEL-EXECUTION-EXPANSION","PTO-TILE-MODEL-LEGALITY-REDUCTION-AND-EXPANSION"],"engine":"SFU","id":"PTO-TILE-TCOLEXPAND","mnemonic":"TCOLEXPAND","summary":"Copies a one-row source bit-for-bit into every row of a new Local Tile.","surface":"tile"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-TCOLEXPAND-CONTRACT-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// TCOLEXPAND MUST copy its one-row source, bit for bit, into every valid row
// of the destination. The bundle MUST end with a single Local B.IOT, MUST NOT
// contain B.IOR or B.IOS, and MUST name a DataType from the sixteen-type set
// this owner lists. Full preflight and source capture MUST come before the
// result, padding and renamed destination are published in one atomic step.
// Decisions: ADR-0035, ADR-0080.
// NDF-END: PTO-TCOLEXPAND-CONTRACT-001
// DOC-BEGIN: decode
// TCOLEXPAND is reached through TEPL selector 0x054 (Mode 2, Function 20).
readonly func InstructionContractOperation_TCOLEXPAND() => TileOperation
begin
    return TileOperation_TCOLEXPAND;
end;
// DOC-END: decode
// DOC-BEGIN: operation
// A bit copy is legal for every member of the sixteen-type set.
pure func InstructionContractDataTypeLegal_TCOLEXPAND(
    data_type: TileDataType) => boolean
begin
    return TileVecArithmeticDataTypeSupported(data_type);
end;

// The broadcast row is passed twice: column expansion has no second
// full-size source, so the second slot repeats the first.
readonly func InstructionContractOperandsLegal_TCOLEXPAND(
    destination: TileIndex,
    broadcast: TileIndex) => boolean
begin
    return TileOperandsLegal_ExecuteTileExpand(TileExpand_COPY,
        TileAxis_Column, destination, broadcast, broadcast);
end;

readonly func InstructionContractHandler_TCOLEXPAND() => TileSemanticHandler
begin
    return TileHandler_ExecuteTileExpand;
end;

func InstructionContractExecute_TCOLEXPAND(
    destination: TileIndex,
    broadcast: TileIndex)
begin
    assert InstructionContractOperandsLegal_TCOLEXPAND(destination, broadcast);
    ExecuteTileExpand(TileExpand_COPY, TileAxis_Column, destination,
        broadcast, broadcast);
end;
// DOC-END: operation
