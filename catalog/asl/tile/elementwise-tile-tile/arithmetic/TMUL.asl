// PTO-INSTRUCTION: {"assembly":["TMUL <bundle operands>"],"block":["BSTART.VEC TMUL, DataType","B.DATR PadValue (optional)","B.DIM LB0=ValidCol","B.DIM LB1=ValidRow (optional)","B.DIM LB2=Col (optional)","B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>","BSTOP"],"catalog_indices":[1],"catalog_records":[{"arguments":[{"constant":"TileBinary_MUL"},{"operand":"destination0"},{"operand":"source0"},{"operand":"source1"}],"command_mnemonic":"BSTART.TEPL","contract_status":"reviewed-complete","datr_contract":{"allowed_nonzero_fields":["PadValueOrByteId"],"pad_union":"pad-value"},"disposition":"accepted-direct-operation","effect_contract":"ExecuteTileBinary","family":"TEPL","fault_contract":"ExecuteTileInstruction","function":2,"legality_handler":"TileOperandsLegal_ExecuteTileBinary","mode":0,"name":"TMUL","operands":[{"field":"destination0","role":"destination"},{"field":"source0","role":"source-left"},{"field":"source1","role":"source-right"}],"restart_contract":"CompleteBundleAtWithAcceptedApplicabilityRules","selector":"0x002","semantic_handler":"ExecuteTileBinary","state_effects":["operand:destination0:destination","operand:source0:source-left","operand:source1:source-right"]}],"classification":["elementwise-tile-tile","arithmetic"],"contract":{"block_composition":["BSTART.VEC TMUL, DataType","B.DATR PadValue (optional)","B.DIM LB0=ValidCol","B.DIM LB1=ValidRow (optional)","B.DIM LB2=Col (optional)","B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>","BSTOP"],"canonical_assembly":["TMUL <bundle operands>"],"defaults":["LB0 must be present and gives a nonzero ValidCol; without LB1 ValidRow is 1, and without LB2 the physical Col equals ValidCol. A dimension that is present must not be zero.","Without B.DATR the PadValue is Null; an explicit PadValue code 00, 01, 10 or 11 selects Zero, Max, Min or Null."],"encoding_class":"selector-encoded-block-operation","examples":["BSTART.VEC TMUL, U64; B.DIM LB0=ValidCol; B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>; BSTOP"],"exceptions":["Malformed bindings, absent or zero dimensions, undefined or mismatched sources, an unsupported DataType or an invalid destination capacity raise Fault_TileLegality before any effect."],"field_contracts":{},"field_zero_meanings":{},"legality":["TMUL has no opcode of its own: BSTART.VEC with Mode 0 and Function 2 selects it.","One terminating Local B.IOT binds the two ordered Local sources and one new Local destination; B.IOR and B.IOS are not allowed.","DataType is one of FP64, FP32, TF32, HF32, FP16, BF16, E4M3, E5M2, S64, S32, S16, S8, U64, U32, U16, or U8.","The sources are fully defined and all three Tiles share physical shape, valid shape, row-major layout, DataType and PE_MASK.","Of B.DATR, only PadValueOrByteId applies."],"memory_effects":["none"],"operands":[{"field":"destination0","role":"new Local destination holding the products"},{"field":"source0","role":"left factor"},{"field":"source1","role":"right factor"}],"ordering":["Both sources are captured before any destination element is written."],"standalone_opcode":false,"state_effects":["After full preflight, publish the elementwise products of the two sources.","Fill the rest of the physical region with the selected PadValue; Null padding stays undefined."]},"depends_on":["PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING"],"engine":"VEC","id":"PTO-TILE-TMUL","mnemonic":"TMUL","summary":"Multiplies the matching elements of two Local Tiles into a new Local Tile.","surface":"tile"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-TMUL-CONTRACT-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// TMUL MUST be selected by VEC Mode 0 Function 2 and MUST multiply each pair
// of matching elements of its two ordered Local sources. Apart from the
// operation itself, TMUL MUST follow the TADD family contract: the same closed
// binary bundle schema, dimension defaults, sixteen-type arithmetic DataType
// set, PadValue rules, complete preflight, source capture and atomic
// publication. A rejected TMUL MUST NOT produce any effect.
// Decisions: ADR-0035, ADR-0080.
// NDF-END: PTO-TMUL-CONTRACT-001
// DOC-BEGIN: decode
// TMUL is reached through TEPL selector 0x002 (Mode 0, Function 2).
readonly func InstructionContractOperation_TMUL() => TileOperation
begin
    return TileOperation_TMUL;
end;
// DOC-END: decode
// DOC-BEGIN: operation
// TMUL reuses the TADD family set: all sixteen arithmetic DataTypes.
pure func InstructionContractDataTypeLegal_TMUL(data_type: TileDataType)
    => boolean
begin
    return TileVecArithmeticDataTypeSupported(data_type);
end;

readonly func InstructionContractOperandsLegal_TMUL(
    destination: TileIndex,
    left: TileIndex,
    right: TileIndex) => boolean
begin
    let operation = TileBinary_MUL;
    return TileOperandsLegal_ExecuteTileBinary(operation, destination,
        left, right);
end;

readonly func InstructionContractHandler_TMUL() => TileSemanticHandler
begin
    return TileHandler_ExecuteTileBinary;
end;

// The shared binary handler snapshots both factors before publishing.
func InstructionContractExecute_TMUL(
    destination: TileIndex,
    left: TileIndex,
    right: TileIndex)
begin
    assert InstructionContractOperandsLegal_TMUL(destination, left, right);
    ExecuteTileBinary(TileBinary_MUL, destination, left, right);
end;
// DOC-END: operation
