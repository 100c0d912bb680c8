// PTO-UNIT: {"id":"PTO-ARCH-OVERVIEW-INSTRUCTION-CLASSIFICATION","surface":"arch","classification":["overview","instruction-classification"],"depends_on":["PTO-ARCH-OVERVIEW-ARCHITECTURE"]}
// NDF-BEGIN: PTO-ARCH-TILE-EXECUTION-ENGINE-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// Every direct Tile operation MUST name exactly one execution engine: VEC,
// SFU, CUBE or TLSU. The engine MUST NOT be inferred from the encoding
// carrier or from the semantic class of the operation.
// Decisions: ADR-0052, ADR-0057.
// NDF-END: PTO-ARCH-TILE-EXECUTION-ENGINE-001
// NDF-BEGIN: PTO-ARCH-TEPL-ALIAS-001
// ndf: kind=contract level=L1 layer=block status=accepted
// BSTART.VEC and BSTART.SFU MUST be assembly spellings of the BSTART.TEPL
// carrier that add no encoding bits. Each alias MUST accept only operations
// of its own engine, and canonical output MUST use the alias that matches the
// operation's engine.
// Decisions: ADR-0057.
// NDF-END: PTO-ARCH-TEPL-ALIAS-001
type TileExecutionEngine of enumeration {
    TileEngine_VEC,
    TileEngine_SFU,
    TileEngine_CUBE,
    TileEngine_TLSU
};

type TileTEPLAlias of enumeration {
    TileTEPLAlias_TEPL,
    TileTEPLAlias_VEC,
    TileTEPLAlias_SFU
};

// Only the two Tile-element engines have a BSTART spelling of their own.
pure func TileEngineHasCanonicalBundleStartAlias(
    engine: TileExecutionEngine) => boolean
begin
    return engine == TileEngine_VEC || engine == TileEngine_SFU;
end;

pure func TileTEPLAliasAcceptsEngine(
    alias: TileTEPLAlias,
    engine: TileExecutionEngine) => boolean
begin
    case alias of
        when TileTEPLAlias_TEPL =>
            return TileEngineHasCanonicalBundleStartAlias(engine);
        when TileTEPLAlias_VEC =>
            return engine == TileEngine_VEC;
        when TileTEPLAlias_SFU =>
            return engine == TileEngine_SFU;
    end;
end;
