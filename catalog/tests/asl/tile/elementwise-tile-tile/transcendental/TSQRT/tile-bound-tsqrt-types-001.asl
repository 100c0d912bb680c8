// PTO-TEST: {"id":"PTO-AVS-TILE-TSQRT-TYPES-001","source":"asl/tile/elementwise-tile-tile/transcendental/TSQRT.asl","requirements":["PTO-INST-TILE-TSQRT","PTO-TILE-DATATYPE-SETS-001"],"kind":"boundary","summary":"TSQRT accepts exactly the eight floating-point arithmetic DataTypes","pass_condition":"eight assigned codes are legal and every integer or compact type is rejected","related_sources":["asl/tile/model/legality/dtype-layout.asl","asl/arch/data-types/tile-data-types.asl"]}
func main() => integer
begin
    var accepted: integer = 0;
    for code = 0 to 31 looplimit 32 do
        let (assigned, data_type) = TileDataTypeOfCode(code[4:0]);
        if assigned && InstructionContractDataTypeLegal_TSQRT(data_type) then
            accepted = accepted + 1;
        end;
    end;
    assert accepted == 8;
    assert InstructionContractDataTypeLegal_TSQRT(TileDataType_FP64);
    assert InstructionContractDataTypeLegal_TSQRT(TileDataType_E5M2);
    assert !InstructionContractDataTypeLegal_TSQRT(TileDataType_S32);
    assert !InstructionContractDataTypeLegal_TSQRT(TileDataType_U8);
    assert !InstructionContractDataTypeLegal_TSQRT(TileDataType_E8M0);
    return 0;
end;
