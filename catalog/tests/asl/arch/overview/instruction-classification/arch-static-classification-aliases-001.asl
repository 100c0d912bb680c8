// PTO-TEST: {"id":"PTO-AVS-ARCH-OVERVIEW-INSTRUCTION-CLASSIFICATION-STATIC-001","source":"asl/arch/overview/instruction-classification.asl","requirements":["PTO-ARCH-TILE-EXECUTION-ENGINE-001","PTO-ARCH-TEPL-ALIAS-001"],"kind":"static-invariant","summary":"only VEC and SFU have BSTART aliases and each alias accepts only its engine","pass_condition":"the alias-by-engine table holds for all four engines","related_sources":[]}
func main() => integer
begin
    assert TileEngineHasCanonicalBundleStartAlias(TileEngine_VEC);
    assert TileEngineHasCanonicalBundleStartAlias(TileEngine_SFU);
    assert !TileEngineHasCanonicalBundleStartAlias(TileEngine_CUBE);
    assert !TileEngineHasCanonicalBundleStartAlias(TileEngine_TLSU);
    assert TileTEPLAliasAcceptsEngine(TileTEPLAlias_VEC, TileEngine_VEC);
    assert !TileTEPLAliasAcceptsEngine(TileTEPLAlias_VEC, TileEngine_SFU);
    assert TileTEPLAliasAcceptsEngine(TileTEPLAlias_SFU, TileEngine_SFU);
    assert !TileTEPLAliasAcceptsEngine(TileTEPLAlias_TEPL, TileEngine_TLSU);
    return 0;
end;
