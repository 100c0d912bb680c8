// PTO-INSTRUCTION: {"assembly":["TSQRT <bundle operands>"],"block":["BSTART.SFU TSQRT, DataType","B.DATR PadValue (optional)","B.DIM LB0=ValidCol","B.DIM LB1=ValidRow (optional)","B.DIM LB2=Col (optional)","B.IOT SrcTile, mask=PE_MASK, <last>, ->DstTile<TSize>","BSTOP"],"catalog_indices":[2],"catalog_records":[{"arguments":[{"constant":"TileUnary_SQRT"},{"operand":"destination0"},{"operand":"source0"}],"command_mnemonic":"BSTART.TEPL","contract_status":"reviewed-complete","datr_contract":{"allowed_nonzero_fields":["PadValueOrByteId"],"pad_union":"pad-value"},"disposition":"accepted-direct-operation","effect_contract":"ExecuteTileUnary","family":"TEPL","fault_contract":"ExecuteTileInstruction","function":21,"legality_handler":"TileOperandsLegal_ExecuteTileUnary","mode":0,"name":"TSQRT","operands":[{"field":"destination0","role":"new Local floating destination"},{"field":"source0","role":"persistent Local floating source"}],"restart_contract":"CompleteBundleAtWithAcceptedApplicabilityRules","selector":"0x015","semantic_handler":"ExecuteTileUnary","state_effects":["operand:destination0:new-local-floating-destination","operand:source0:persistent-local-floating-source","runtime:CurrentBundlePadValue:numeric-padding","runtime:NumericStatusFlags:profile-status"]}],"classification":["elementwise-tile-tile","transcendental"],"contract":{"block_composition":["BSTART.SFU TSQRT, DataType","B.DATR PadValue (optional)","B.DIM LB0=ValidCol","B.DIM LB1=ValidRow (optional)","B.DIM LB2=Col (optional)","B.IOT SrcTile, mask=PE_MASK, <last>, ->DstTile<TSize>","BSTOP"],"canonical_assembly":["TSQRT <bundle operands>"],"defaults":["LB0 must be present and gives a nonzero ValidCol; without LB1 ValidRow is 1, and without LB2 the physical Col equals ValidCol. A dimension that is present must not be zero.","Without B.DATR the PadValue is Null; an explicit PadValue code 00, 01, 10 or 11 selects Zero, Max, Min or Null.","The selected numeric profile fixes the approximation, rounding, special results and the NV/DZ/OF/UF/NX status bits."],"encoding_class":"selector-encoded-block-operation","examples":["BSTART.SFU TSQRT, FP32; B.DIM LB0=ValidCol; B.IOT SrcTile, mask=PE_MASK, <last>, ->DstTile<TSize>; BSTOP"],"exceptions":["Malformed Local bindings, a B.IOR or B.IOS, absent or zero dimensions, an unsupported DataType, an undefined or invalid source encoding, a descriptor mismatch, or a capacity or allocation failure raises the matching Tile fault before any effect.","The square root keeps -0.0 and +0.0 and maps +inf to +inf; a negative nonzero input yields a quiet NaN and sets invalid, and a signaling NaN input also sets invalid."],"field_contracts":{},"field_zero_meanings":{"B.DATR.PadValueOrByteId":"An encoded zero selects Zero padding when B.DATR is present; leaving B.DATR out selects Null."},"legality":["TSQRT keeps its TEPL Mode 0 Function 21 carrier encoding and runs on the SFU engine; its canonical start is BSTART.SFU.","One terminating Local B.IOT binds one persistent source and one new destination; B.IOR and B.IOS are illegal.","DataType is one of FP64, FP32, TF32, HF32, FP16, BF16, E4M3, or E5M2.","Source and destination agree in physical shape, valid shape, row-major layout and DataType, and every valid source element is defined and validly encoded.","Only PadValueOrByteId of B.DATR applies; any non-default CMode, Sat, Canonicalize, secondary DataType, RMode or Layout is illegal.","Both Tiles use one PE_MASK; PE_MASK=0000 is a strict no-op that reads no descriptor and raises no fault."],"memory_effects":["none"],"operands":[{"field":"destination0","role":"new Local floating-point destination"},{"field":"source0","role":"persistent Local floating-point source"}],"ordering":["The full schema, attribute, dimension, type, descriptor, definedness, encoding, mask, capacity and allocation preflight completes before the source is captured and evaluated.","The whole source payload is captured before publication, so an aliased destination sees the old source."],"standalone_opcode":false,"state_effects":["Each valid element becomes the same-type square root defined by the selected profile.","Status flags of all elements are merged, padding is applied, and payload, definedness, status and destination descriptor are published together; a rejection changes nothing."]},"depends_on":["PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING"],"engine":"SFU","id":"PTO-TILE-TSQRT","mnemonic":"TSQRT","summary":"Takes the square root of every valid element of a Local Tile, keeping the element type.","surface":"tile"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-TSQRT-CONTRACT-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// TSQRT MUST keep the TEPL Mode 0 Function 21 carrier while executing on
// the SFU engine. It MUST read one persistent Local floating-point source,
// MUST write one renamed destination of the same DataType, MUST keep the sign
// of zero, MUST map positive infinity to itself where the format has one,
// and MUST return a quiet NaN with the invalid flag for a negative nonzero
// input. DataType, dimension, PadValue, preflight, capture, status, padding
// and atomic publication rules MUST act as one closed operation.
// Decisions: ADR-0035, ADR-0080.
// NDF-END: PTO-TSQRT-CONTRACT-001
// DOC-BEGIN: decode
// TSQRT keeps TEPL selector 0x015 (Mode 0, Function 21); engine SFU.
readonly func InstructionContractOperation_TSQRT() => TileOperation
begin
    return TileOperation_TSQRT;
end;
// DOC-END: decode
// DOC-BEGIN: operation
// Only the eight floating-point members of the arithmetic set qualify.
pure func InstructionContractDataTypeLegal_TSQRT(data_type: TileDataType)
    => boolean
begin
    return TileFloatingElementwiseDataTypeSupported(data_type);
end;

readonly func InstructionContractOperandsLegal_TSQRT(
    destination: TileIndex,
    source: TileIndex) => boolean
begin
    let operation = TileUnary_SQRT;
    return TileOperandsLegal_ExecuteTileUnary(operation, destination, source);
end;

readonly func InstructionContractHandler_TSQRT() => TileSemanticHandler
begin
    return TileHandler_ExecuteTileUnary;
end;

// Special values (signed zero, +inf, NaN results and the invalid flag)
// come from the selected numeric profile inside ExecuteTileUnary.
func InstructionContractExecute_TSQRT(
    destination: TileIndex,
    source: TileIndex)
begin
    assert InstructionContractOperandsLegal_TSQRT(destination, source);
    ExecuteTileUnary(TileUnary_SQRT, destination, source);
end;
// DOC-END: operation
