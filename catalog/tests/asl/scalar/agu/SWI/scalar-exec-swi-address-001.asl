// PTO-TEST: {"id":"PTO-AVS-AGU-SWI-ADDRESS-001","source":"asl/scalar/agu/SWI.asl","requirements":["PTO-INST-SCALAR-SWI","PTO-SWI-ADR-CONTRACT-001"],"kind":"execution","summary":"SWI scales the sign-extended displacement by 4, wraps modulo 2^64 and stores four bytes little-endian","pass_condition":"base 0x1000 with -3 gives 0xff4 and base 0 with +1 gives 4; an executed SWI stores the register's four low bytes at 0x28..0x2b and advances the PC by 4","related_sources":[]}
func main() => integer
begin
    assert InstructionContractAGUSizeBytes_SWI() == 4;
    assert InstructionContractAGUOffsetScale_SWI() == 2;
    assert InstructionContractAGUUpdateMode_SWI() == AddressUpdate_None;
    let minus_three = '111111111101';
    assert InstructionContractAddress_SWI(Zeros{64} + 0x1000, minus_three) == Zeros{64} + 0xff4;
    assert InstructionContractAddress_SWI(Zeros{64}, '000000000001') == Zeros{64} + 4;
    assert InstructionContractAddress_SWI(Zeros{64}, minus_three) == Ones{64} - 11;

    // swi x5, [x6, 2]: SrcL 5, SrcR 6, simm12 2 (byte displacement 8).
    ResetProfileState();
    WriteGPR(5, Zeros{64} + 0x1122334455667788);
    WriteGPR(6, Zeros{64} + 0x20);
    let word = '00000100011000101010000001011001';
    assert ExecuteScalarInstruction(Zeros{16} :: word, 32) == ExecutionStatus_Retired;
    assert ReadMemoryByte(Zeros{64} + 0x28) == '10001000';
    assert ReadMemoryByte(Zeros{64} + 0x29) == '01110111';
    assert ReadMemoryByte(Zeros{64} + 0x2a) == '01100110';
    assert ReadMemoryByte(Zeros{64} + 0x2b) == '01010101';
    assert ReadMemoryByte(Zeros{64} + 0x2c) == Zeros{8};
    assert _PC == Zeros{64} + 4;
    assert LastFault() == Fault_None;
    return 0;
end;
