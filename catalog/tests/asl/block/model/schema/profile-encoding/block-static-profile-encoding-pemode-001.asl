// PTO-TEST: {"id":"PTO-AVS-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING-PEMODE-001","source":"asl/block/model/schema/profile-encoding.asl","requirements":[],"kind":"static-invariant","summary":"every PE_MODE code maps to its PE mask","pass_condition":"the eight PE_MODE codes give 0000, 1000, 0100, 0010, 0001, 1100, 1110 and 1111","related_sources":[]}
func main() => integer
begin
    assert PTOv0PEMaskOfPEMode('000') == '0000';
    assert PTOv0PEMaskOfPEMode('001') == '1000';
    assert PTOv0PEMaskOfPEMode('010') == '0100';
    assert PTOv0PEMaskOfPEMode('011') == '0010';
    assert PTOv0PEMaskOfPEMode('100') == '0001';
    assert PTOv0PEMaskOfPEMode('101') == '1100';
    assert PTOv0PEMaskOfPEMode('110') == '1110';
    assert PTOv0PEMaskOfPEMode('111') == '1111';
    assert PTOv0BundleKindCode(BundleKind_TileElement) == '0101';
    return 0;
end;
