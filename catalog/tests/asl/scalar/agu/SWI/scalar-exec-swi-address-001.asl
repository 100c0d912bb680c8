// PTO-TEST: {"id":"PTO-AVS-AGU-SWI-ADDRESS-001","source":"asl/scalar/agu/SWI.asl","requirements":["PTO-INST-SCALAR-SWI","PTO-SWI-ADR-CONTRACT-001"],"kind":"execution","summary":"SWI scales the sign-extended displacement by 4 and wraps modulo 2^64","pass_condition":"base 0x1000 with -3 gives 0xff4, and base 0 with +1 gives 4","related_sources":[]}
func main() => integer
begin
    assert InstructionContractAGUSizeBytes_SWI() == 4;
    assert InstructionContractAGUOffsetScale_SWI() == 2;
    assert InstructionContractAGUUpdateMode_SWI() == AddressUpdate_None;
    let minus_three = '111111111101';
    assert InstructionContractAddress_SWI(Zeros{64} + 0x1000, minus_three) == Zeros{64} + 0xff4;
    assert InstructionContractAddress_SWI(Zeros{64}, '000000000001') == Zeros{64} + 4;
    assert InstructionContractAddress_SWI(Zeros{64}, minus_three) == Ones{64} - 11;
    return 0;
end;
