// PTO-TEST: {"id":"PTO-AVS-AGU-SWI-ALIGN-001","source":"asl/scalar/agu/SWI.asl","requirements":["PTO-SWI-ADR-CONTRACT-001"],"kind":"fault","summary":"SWI treats an address that is not a multiple of 4 as misaligned and faults before any memory effect","pass_condition":"only addresses with bits 1:0 clear pass the alignment preflight; an executed SWI to 0x26 records Fault_DataAlignment, stores nothing and leaves the PC at the instruction","related_sources":[]}
func main() => integer
begin
    assert InstructionContractAligned_SWI(Zeros{64} + 0xff4);
    assert !InstructionContractAligned_SWI(Zeros{64} + 0xff6);
    assert !InstructionContractAligned_SWI(Zeros{64} + 0xff5);

    // swi x5, [x6, 1] with x6 = 0x22: the address 0x26 is misaligned.
    ResetProfileState();
    WriteGPR(5, Zeros{64} + 0x11223344);
    WriteGPR(6, Zeros{64} + 0x22);
    let word = '00000010011000101010000001011001';
    assert ExecuteScalarInstruction(Zeros{16} :: word, 32) == ExecutionStatus_Faulted;
    assert LastFault() == Fault_DataAlignment;
    for address = 0 to PTO_SCALAR_MEMORY_BYTES - 1 looplimit 1024 do
        assert ReadMemoryByte(Zeros{64} + address) == Zeros{8};
    end;
    assert _PC == Zeros{64};
    return 0;
end;
