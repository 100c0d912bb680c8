// PTO-TEST: {"id":"PTO-AVS-TILE-TMUL-TYPES-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl","requirements":["PTO-INST-TILE-TMUL","PTO-TILE-DATATYPE-SETS-001"],"kind":"boundary","summary":"TMUL accepts exactly the sixteen arithmetic DataTypes","pass_condition":"all sixteen listed types are legal and every packed, exponent-only or HiF type is not","related_sources":["asl/tile/model/legality/dtype-layout.asl","asl/arch/data-types/tile-data-types.asl"]}
func main() => integer
begin
    var accepted: integer = 0;
    for code = 0 to 31 looplimit 32 do
        let (assigned, data_type) = TileDataTypeOfCode(code[4:0]);
        if assigned && InstructionContractDataTypeLegal_TMUL(data_type) then
            accepted = accepted + 1;
        end;
    end;
    assert accepted == 16;
    assert InstructionContractDataTypeLegal_TMUL(TileDataType_U64);
    assert InstructionContractDataTypeLegal_TMUL(TileDataType_E4M3);
    assert InstructionContractDataTypeLegal_TMUL(TileDataType_S8);
    assert !InstructionContractDataTypeLegal_TMUL(TileDataType_HiF8);
    assert !InstructionContractDataTypeLegal_TMUL(TileDataType_E8M0);
    assert !InstructionContractDataTypeLegal_TMUL(TileDataType_S4X2);
    assert !InstructionContractDataTypeLegal_TMUL(TileDataType_U4X2);
    return 0;
end;
