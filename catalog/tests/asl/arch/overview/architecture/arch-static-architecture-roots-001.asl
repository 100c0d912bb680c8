// PTO-TEST: {"id":"PTO-AVS-ARCH-OVERVIEW-ARCHITECTURE-STATIC-001","source":"asl/arch/overview/architecture.asl","requirements":["PTO-SOURCE-HIERARCHY","PTO-RELEASE-VERIFICATION"],"kind":"static-invariant","summary":"the architecture names four normative source roots and a 64-bit XLEN","pass_condition":"both constants hold","related_sources":[]}
func main() => integer
begin
    assert ArchitectureSourceRootCount() == 4;
    assert PTO_XLEN == 64;
    return 0;
end;
