// PTO-UNIT: {"id":"PTO-TILE-MODEL-DISPATCH-TOP-LEVEL","surface":"tile","classification":["model","dispatch","top-level"],"depends_on":["PTO-TILE-TADD","PTO-TILE-TMUL","PTO-TILE-TSQRT","PTO-TILE-TCOLEXPAND"],"catalog_projection":{"catalog":"tile-operations","deleted_names":["TADDC","TALLOC","TFREE","TSUBC"],"isa":"PTO Instruction Set Architecture","rejected_names":["TFILL/TEXPANDS","TPOW"],"rejected_review_only_codes":{"CUBE":[],"TEPL":[],"TLSU":[]},"reserved":{"tepl_selector_ranges":[["0x005","0x005"],["0x00E","0x00E"],["0x018","0x019"],["0x01D","0x01F"],["0x025","0x025"],["0x02E","0x039"],["0x03C","0x03F"],["0x04E","0x04F"],["0x05E","0x05F"],["0x061","0x061"],["0x069","0x069"],["0x075","0x07F"]]},"schema_version":3}}
type TileOperation of enumeration {
    TileOperation_TADD,
    TileOperation_TMUL,
    TileOperation_TSQRT,
    TileOperation_TCOLEXPAND
};

type TileSemanticHandler of enumeration {
    TileHandler_ExecuteTileBinary,
    TileHandler_ExecuteTileUnary,
    TileHandler_ExecuteTileExpand
};

// A TEPL selector is Mode in bits 6:5 and Function in bits 4:0.
pure func TileTeplSelector(mode: integer {0..3}, function: integer {0..31})
    => integer {0..127}
begin
    return (mode * 32 + function) as integer {0..127};
end;

// The sample assigns four selectors: 0x000, 0x002, 0x015 and 0x054.
pure func TileSelectorAssigned(selector: integer {0..127}) => boolean
begin
    return selector == 0 || selector == 2 || selector == 21 || selector == 84;
end;

pure func TileOperationOfSelector(selector: integer {0..127}) => TileOperation
begin
    assert TileSelectorAssigned(selector);
    if selector == 0 then
        return TileOperation_TADD;
    elsif selector == 2 then
        return TileOperation_TMUL;
    elsif selector == 21 then
        return TileOperation_TSQRT;
    else
        return TileOperation_TCOLEXPAND;
    end;
end;

pure func TileEngineOfOperation(operation: TileOperation) => TileExecutionEngine
begin
    case operation of
        when TileOperation_TADD, TileOperation_TMUL => return TileEngine_VEC;
        otherwise => return TileEngine_SFU;
    end;
end;

pure func TileHandlerOfOperation(operation: TileOperation) => TileSemanticHandler
begin
    case operation of
        when TileOperation_TADD, TileOperation_TMUL =>
            return TileHandler_ExecuteTileBinary;
        when TileOperation_TSQRT => return TileHandler_ExecuteTileUnary;
        otherwise => return TileHandler_ExecuteTileExpand;
    end;
end;

pure func TileTEPLAliasAcceptsOperation(
    alias: TileTEPLAlias,
    operation: TileOperation) => boolean
begin
    return TileTEPLAliasAcceptsEngine(alias, TileEngineOfOperation(operation));
end;
