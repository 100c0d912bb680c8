// PTO-INSTRUCTION: {"assembly":["TADD <bundle operands>"],"block":["BSTART.VEC TADD, DataType","B.DATR PadValue (optional)","B.DIM LB0=ValidCol","B.DIM LB1=ValidRow (optional)","B.DIM LB2=Col (optional)","B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>","BSTOP"],"catalog_indices":[0],"catalog_records":[{"arguments":[{"constant":"TileBinary_ADD"},{"operand":"destination0"},{"operand":"source0"},{"operand":"source1"}],"command_mnemonic":"BSTART.TEPL","contract_status":"reviewed-complete","datr_contract":{"allowed_nonzero_fields":["PadValueOrByteId"],"pad_union":"pad-value"},"disposition":"accepted-direct-operation","effect_contract":"ExecuteTileBinary","family":"TEPL","fault_contract":"ExecuteTileInstruction","function":0,"legality_handler":"TileOperandsLegal_ExecuteTileBinary","mode":0,"name":"TADD","operands":[{"field":"destination0","role":"destination"},{"field":"source0","role":"source-left"},{"field":"source1","role":"source-right"}],"restart_contract":"CompleteBundleAtWithAcceptedApplicabilityRules","selector":"0x000","semantic_handler":"ExecuteTileBinary","state_effects":["operand:destination0:destination","operand:source0:source-left","operand:source1:source-right"]}],"classification":["elementwise-tile-tile","arithmetic"],"contract":{"block_composition":["BSTART.VEC TADD, DataType","B.DATR PadValue (optional)","B.DIM LB0=ValidCol","B.DIM LB1=ValidRow (optional)","B.DIM LB2=Col (optional)","B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>","BSTOP"],"canonical_assembly":["TADD <bundle operands>"],"defaults":["LB0 must be present and gives a nonzero ValidCol; without LB1 ValidRow is 1, and without LB2 the physical Col equals ValidCol. A dimension that is present must not be zero.","Without B.DATR the PadValue is Null; an explicit PadValue code 00, 01, 10 or 11 selects Zero, Max, Min or Null.","Physical Rows of the destination follow from TSize, Col and the element width; Rows and Col are powers of two and enclose ValidRow x ValidCol."],"encoding_class":"selector-encoded-block-operation","examples":["BSTART.VEC TADD, S32; B.DIM LB0=ValidCol; B.DIM LB1=ValidRow (optional); B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>; BSTOP"],"exceptions":["A missing LB0, a malformed Local B.IOT, a B.IOR or B.IOS, mismatched or undefined sources, an unsupported DataType or an unusable destination capacity raises Fault_TileLegality before any destination effect.","Restart and completion after acceptance follow CompleteBundleAtWithAcceptedApplicabilityRules."],"field_contracts":{},"field_zero_meanings":{},"legality":["TADD has no opcode of its own: BSTART.VEC with Mode 0 and Function 0 selects it.","The bundle ends with exactly one Local B.IOT that binds the left source, the right source and one new Local destination; B.IOR and B.IOS are rejected, and every Tile carries the same PE_MASK.","DataType is one of FP64, FP32, TF32, HF32, FP16, BF16, E4M3, E5M2, S64, S32, S16, S8, U64, U32, U16, or U8.","Both sources are fully defined, and the three Tiles agree in physical shape, valid shape, row-major layout and DataType.","B.DATR may set only PadValueOrByteId, read as PadValue."],"memory_effects":["none"],"operands":[{"field":"destination0","role":"newly allocated Local destination"},{"field":"source0","role":"left Local source, bound first"},{"field":"source1","role":"right Local source, bound second"}],"ordering":["Both source payloads are captured before the first destination write, so a destination that aliases a source reads the old value."],"standalone_opcode":false,"state_effects":["Once preflight succeeds, each valid destination element receives the sum of the matching source elements, and the valid region is published in one step.","Physical elements outside ValidRow x ValidCol take the selected PadValue; Zero, Max and Min define them, Null leaves them undefined."]},"depends_on":["PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING"],"engine":"VEC","id":"PTO-TILE-TADD","mnemonic":"TADD","summary":"Adds the matching elements of two Local Tiles into a new Local Tile.","surface":"tile"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-TADD-CONTRACT-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// TADD is the TEPL family contract for two-source elementwise VEC operations.
// It MUST be selected by VEC Mode 0 Function 0 and MUST bind exactly two
// ordered Local sources and one new Local destination through a single
// terminating Local B.IOT. LB0 MUST carry a nonzero ValidCol; a missing LB1
// MUST mean ValidRow=1 and a missing LB2 MUST mean Col=ValidCol. A missing
// B.DATR MUST mean Null padding. The sources MUST be fully defined and MUST
// match the destination in shape, row-major layout and one DataType of the
// sixteen-type arithmetic set. All legality checks MUST finish before the
// sources are captured, and the sums and padding MUST become visible together.
// Decisions: ADR-0035, ADR-0080.
// NDF-END: PTO-TADD-CONTRACT-001
// DOC-BEGIN: decode
// TADD is reached through TEPL selector 0x000 (Mode 0, Function 0).
readonly func InstructionContractOperation_TADD() => TileOperation
begin
    return TileOperation_TADD;
end;
// DOC-END: decode
// DOC-BEGIN: operation
// The family data-type set is the sixteen-type arithmetic set.
pure func InstructionContractDataTypeLegal_TADD(data_type: TileDataType)
    => boolean
begin
    return TileVecArithmeticDataTypeSupported(data_type);
end;

readonly func InstructionContractOperandsLegal_TADD(
    destination: TileIndex,
    left: TileIndex,
    right: TileIndex) => boolean
begin
    let operation = TileBinary_ADD;
    return TileOperandsLegal_ExecuteTileBinary(operation, destination,
        left, right);
end;

readonly func InstructionContractHandler_TADD() => TileSemanticHandler
begin
    return TileHandler_ExecuteTileBinary;
end;

// Preflight first; ExecuteTileBinary captures both sources before it
// writes the destination, so aliasing reads the old payload.
func InstructionContractExecute_TADD(
    destination: TileIndex,
    left: TileIndex,
    right: TileIndex)
begin
    assert InstructionContractOperandsLegal_TADD(destination, left, right);
    ExecuteTileBinary(TileBinary_ADD, destination, left, right);
end;
// DOC-END: operation
