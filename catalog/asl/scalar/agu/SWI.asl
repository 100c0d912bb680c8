// PTO-INSTRUCTION: {"assembly":["swi SrcL, [SrcR, simm]"],"block":[],"catalog_indices":[0],"catalog_records":[{"agu":{"action":"Store","address_kind":"Immediate","offset_scale":2,"prefetch_returns_address":false,"signed_load":false,"size_bytes":4,"update_mode":"None"},"asm":"swi SrcL, [SrcR, simm]","constraints":[],"encoding":[{"index":0,"mask":"0x0000707f","match":"0x00002059","width_bits":32}],"encoding_kind":"L32","fields":[{"name":"SrcL","pieces":[{"instruction_lsb":15,"value_lsb":0,"width":5}],"signedness":"encoding-defined","width":5},{"name":"SrcR","pieces":[{"instruction_lsb":20,"value_lsb":0,"width":5}],"signedness":"encoding-defined","width":5},{"name":"simm12","pieces":[{"instruction_lsb":25,"value_lsb":0,"width":7},{"instruction_lsb":7,"value_lsb":7,"width":5}],"signedness":"signed","width":12}],"form_id":"swi_32_147e55489c41","length_bits":32,"mnemonic":"SWI","semantic_family":"AGU","semantic_group":"STA/BASE_IMM","semantic_handler":"ExecuteScalarStore","semantic_summary":"Stores one aligned little-endian 4-byte value at a base-plus-scaled-immediate address.","status":"accepted"}],"classification":["agu"],"contract":{"block_composition":["none"],"canonical_assembly":["swi SrcL, [SrcR, simm]"],"defaults":["All displayed operand fields are encoded; an encoded zero is a value, never an omission."],"encoding_class":"standalone-encoded","examples":["swi SrcL, [SrcR, simm]"],"exceptions":["A fixed-bit mismatch, a reserved field value or an unavailable T or U source raises Fault_IllegalInstruction before any effect.","A misaligned address raises Fault_DataAlignment before translation; a later permission or bounds failure raises Fault_DataPage for the original address.","A faulting attempt records no memory event, makes no partial effect, keeps pending writeback and leaves TPC at the instruction; recovery reissues it from scratch."],"field_contracts":{},"field_zero_meanings":{"SrcL":"Code zero reads the architectural zero register.","SrcR":"Code zero reads the architectural zero register.","simm12":"Code zero is a zero displacement, not an omission."},"legality":["Each Reg5 source covers its whole domain: 0..23 select absolute GPRs, 24..27 select T#1..T#4 and 28..31 select U#1..U#4 without consuming them.","simm12 is split over bits 31:25 (value bits 6:0) and bits 11:7 (value bits 11:7); every signed value -2048..2047 is assigned and the byte displacement is the value times 4.","The address must be aligned to 4 bytes, and the 4-byte access is one indivisible transfer."],"memory_effects":["After full preflight, one little-endian 4-byte store is performed and recorded as one relaxed store event.","A successful store that overlaps a reservation invalidates it; a reservation that does not overlap stays valid."],"operands":[{"field":"SrcL","role":"Reg5 source of the data to store"},{"field":"SrcR","role":"Reg5 source of the base address"},{"field":"simm12","role":"signed displacement, scaled by 4"}],"ordering":["All scalar sources are captured before any memory or destination effect, so aliases observe pre-instruction values.","The store completes, then TPC advances."],"standalone_opcode":true,"state_effects":["The address is SrcR plus sign-extended simm12 times 4, modulo 2^PTO_XLEN.","A successful store advances TPC by 4; a rejected or faulting attempt does not retire."]},"depends_on":["PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING"],"id":"PTO-SCALAR-SWI","mnemonic":"SWI","summary":"Stores one aligned little-endian 4-byte value at a base-plus-scaled-immediate address.","surface":"scalar"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-SWI-ADR-CONTRACT-001
// ndf: kind=contract level=L1 layer=scalar status=accepted
// Decisions: ADR-0024, ADR-0029.
// SWI MUST capture its data and base sources first, MUST form the address
// from SrcR and the reassembled, sign-extended simm12 scaled by 4, MUST check
// alignment and access before any memory effect, and MUST then perform one
// 4-byte store and retire, or leave no effect at all if the attempt faults.
// NDF-END: PTO-SWI-ADR-CONTRACT-001
// DOC-BEGIN: decode
readonly func InstructionContractOperation_SWI() => ScalarOperation
begin
    return ScalarOperation_SWI;
end;

// simm12 is split: value bits 6:0 sit in instruction bits 31:25 and
// value bits 11:7 sit in instruction bits 11:7.
pure func InstructionContractDisplacement_SWI(word: bits(32)) => bits(12)
begin
    return word[11:7] :: word[31:25];
end;
// DOC-END: decode
// DOC-BEGIN: operation
readonly func InstructionContractHandler_SWI() => ScalarSemanticHandler
begin
    return ScalarHandler_ExecuteScalarStore;
end;

// AGU parameters of the form: an immediate-addressed 4-byte store with
// offset scale 2 (times 4), no base update, no sign extension on load and
// no address result.
pure func InstructionContractAGUAction_SWI() => ScalarAGUAction
begin
    return ScalarAGU_Store;
end;

pure func InstructionContractAGUAddressKind_SWI() => ScalarAGUAddressKind
begin
    return ScalarAGU_Immediate;
end;

pure func InstructionContractAGUSizeBytes_SWI() => integer {1, 2, 4, 8}
begin
    return 4;
end;

pure func InstructionContractAGUOffsetScale_SWI() => integer {0..3}
begin
    return 2;
end;

pure func InstructionContractAGUUpdateMode_SWI() => AddressUpdateMode
begin
    return AddressUpdate_None;
end;

pure func InstructionContractAddress_SWI(base: bits(64), simm12: bits(12))
    => bits(64)
begin
    return base + LSL(SignExtend{64}(simm12), 2);
end;

pure func InstructionContractAligned_SWI(address: bits(64)) => boolean
begin
    return address[1:0] == '00';
end;

// Capture both sources, form and check the address, then store four bytes
// low byte first. A faulting attempt records its fault and nothing else.
func InstructionContractExecute_SWI(word: bits(32)) => ExecutionStatus
begin
    let data = ReadGPR(UInt(word[19:15]));
    let base = ReadGPR(UInt(word[24:20]));
    let address = InstructionContractAddress_SWI(base,
        InstructionContractDisplacement_SWI(word));
    if !InstructionContractAligned_SWI(address) then
        _LastFault = Fault_DataAlignment;
        return ExecutionStatus_Faulted;
    end;
    if !MemoryAccessMapped(address, 4) then
        _LastFault = Fault_DataPage;
        return ExecutionStatus_Faulted;
    end;
    for i = 0 to 3 looplimit 4 do
        WriteMemoryByte(address + i, data[8*i+7:8*i]);
    end;
    return ExecutionStatus_Retired;
end;
// DOC-END: operation
