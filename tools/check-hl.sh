#!/usr/bin/env bash
# check-hl.sh — parse + type-check halebench's Hale (.hl) programs against a hale
# source tree (v0.17.0), without the Hale compiler: hale's std-only crates
# hale-syntax and hale-types (with Debian's serde_json) build offline, where the
# compiler's codegen needs crates from crates.io.
#
# What it does (idempotent; rerun any time), all in $SCRATCH, outside the repo:
#   1. takes the hale source: HALE_SRC (a checkout, default ../hale beside the
#      repo) or HALE_GIT (a bare git repository whose HEAD is exported);
#   2. installs Debian's serde_json crate (librust-serde-json-dev) if missing;
#   3. points cargo at Debian's registry (/usr/share/cargo/registry), offline;
#   4. builds the small checker `hlcheck` on hale-syntax + hale-types. Per file it
#      does what `hale check FILE.hl` does for a single file without imports:
#      parse -> json_gen (T::from_json) -> sync inference -> check_bundle_opts ->
#      unbounded-allocation advisories; plus a name lint (hale-types types an
#      unknown identifier as Unknown, and does not check the arity of calls through
#      fn values: codegen would reject both);
#   5. self-test: a broken program must be rejected, corpus examples accepted;
#   6. checks every .hl under benches/ and xproc/hale/ (or the files given).
# Exit 0 iff all pass. Not covered: codegen-only rejections and run-time behaviour.
#
# Usage:  tools/check-hl.sh [FILE.hl ...]     (make check-hl)
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH=${SCRATCH:-${TMPDIR:-/tmp}/halebench-hlcheck}
HALE_SRC=${HALE_SRC:-$REPO/../hale}
HALE_GIT=${HALE_GIT:-}
BIN="$SCRATCH/checker/target/release/hlcheck"

mkdir -p "$SCRATCH"
cd "$SCRATCH"

# 1. hale source
if [ -n "$HALE_GIT" ]; then
    if [ ! -f "$SCRATCH/src/Cargo.toml" ] || [ -L "$SCRATCH/src" ]; then
        rm -rf "$SCRATCH/src"
        mkdir -p "$SCRATCH/src"
        git -C "$HALE_GIT" archive HEAD | tar -x -C "$SCRATCH/src"
    fi
elif [ -f "$HALE_SRC/Cargo.toml" ]; then
    rm -rf "$SCRATCH/src"
    ln -s "$(cd "$HALE_SRC" && pwd)" "$SCRATCH/src"
else
    echo "check-hl: no hale source: give HALE_SRC=DIR (a hale-lang/hale checkout) or HALE_GIT=DIR (a bare clone)" >&2
    exit 2
fi
grep -q '^version = "0.17.0"' "$SCRATCH/src/Cargo.toml" || {
    echo "check-hl: the hale source at $SCRATCH/src is not workspace version 0.17.0" >&2; exit 2; }

# 2. serde_json from Debian
if [ ! -d /usr/share/cargo/registry ] || ! ls -d /usr/share/cargo/registry/serde_json-* >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq librust-serde-json-dev >/dev/null
fi

# 3. cargo: Debian's registry as a replaced source, offline
mkdir -p "$SCRATCH/.cargo"
cat > "$SCRATCH/.cargo/config.toml" <<'CFG_EOF'
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "/usr/share/cargo/registry"

[net]
offline = true
CFG_EOF

# 4. the checker crate
mkdir -p "$SCRATCH/checker/src"
cat > "$SCRATCH/checker/Cargo.toml" <<'CARGO_EOF'
[package]
name = "hlcheck"
version = "0.1.0"
edition = "2021"

[workspace]

[dependencies]
hale-syntax = { path = "../src/crates/hale-syntax" }
hale-types = { path = "../src/crates/hale-types" }
CARGO_EOF
cat > "$SCRATCH/checker/src/main.rs" <<'MAIN_EOF'
// Scratch checker: parse + type-check .hl files the way `hale check <file>` does for a
// single file without imports (parse -> json_gen -> sync inference -> check_bundle_opts
// -> unbounded-alloc advisories). Prints diagnostics; exit 1 if any file has an error.
use std::collections::BTreeMap;
mod names;

fn check_one(path: &str) -> bool {
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: {}", path, e);
            return false;
        }
    };
    let mut program = match hale_syntax::parse_source_at(&source, 0) {
        Ok(p) => p,
        Err(diags) => {
            for d in &diags {
                println!("{}", d.render_located(path, &source, 0));
            }
            println!("FAIL(parse) {}", path);
            return false;
        }
    };
    // Name-resolution lint on the source as written (before generated items).
    let mut lint_errs = 0;
    {
        let mut lint = names::Lint::new(&program, &source);
        lint.run(&program);
        for (sp, msg) in &lint.found {
            let (l, c) = sp.line_col(&source);
            println!("{}:{}:{}: name error: {}", path, l, c, msg);
            lint_errs += 1;
        }
    }
    hale_syntax::json_gen::generate_json_parsers(&mut program);
    let _ = hale_types::apply_sync_inference(&mut program);
    let mut progs: BTreeMap<String, &hale_syntax::ast::Program> = BTreeMap::new();
    progs.insert(path.to_string(), &program);
    let bundle = hale_types::Bundle::new(progs);
    let mut diags = hale_types::check_bundle_opts(&bundle, false);
    diags.extend(hale_types::unbounded_alloc_warnings(&bundle, true));
    let mut errs = 0;
    let mut warns = 0;
    for d in &diags {
        if d.is_error() { errs += 1 } else { warns += 1 }
        println!("{}", d.render_located(path, &source, 0));
    }
    errs += lint_errs;
    if errs > 0 {
        println!("FAIL(type) {} ({} error(s), {} warning(s))", path, errs, warns);
        false
    } else {
        println!("ok {} ({} warning(s))", path, warns);
        true
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!("usage: hlcheck FILE.hl...");
        std::process::exit(2);
    }
    let mut bad = 0;
    for a in &args {
        if !check_one(a) {
            bad += 1;
        }
    }
    println!("{} passed, {} failed", args.len() - bad, bad);
    std::process::exit(if bad > 0 { 1 } else { 0 });
}
MAIN_EOF
cat > "$SCRATCH/checker/src/names.rs" <<'NAMES_EOF'
// Name-resolution lint. hale-types types an unknown identifier as `Unknown`
// without a diagnostic (codegen is what rejects it), so this pass walks every
// body and reports identifiers / struct-literal heads / callees that resolve to
// nothing: not a local, param, loop var, `err` in an `or` RHS, a top-level
// decl, or a known builtin free fn.
use hale_syntax::ast::*;
use hale_syntax::Span;
use std::collections::{HashMap, HashSet};

const BUILTINS: &[&str] = &[
    "println", "print", "eprintln", "eprint", "to_string", "len",
    "abs", "min", "max", "starts_with", "contains", "check_closures",
];

pub struct Lint<'a> {
    globals: HashSet<String>,
    // name -> arity when the binding has a declared fn type (`fn(A, B) -> R`)
    scopes: Vec<HashMap<String, Option<usize>>>,
    pub found: Vec<(Span, String)>,
    _src: &'a str,
}

impl<'a> Lint<'a> {
    pub fn new(p: &Program, src: &'a str) -> Self {
        let mut g = HashSet::new();
        for b in BUILTINS {
            g.insert(b.to_string());
        }
        for it in &p.items {
            match it {
                TopDecl::Locus(l) => {
                    g.insert(l.name.name.clone());
                }
                TopDecl::Type(t) => {
                    g.insert(t.name.name.clone());
                }
                TopDecl::Const(c) => {
                    g.insert(c.name.name.clone());
                }
                TopDecl::Fn(f) => {
                    g.insert(f.name.name.clone());
                }
                TopDecl::Topic(t) => {
                    g.insert(t.name.name.clone());
                }
                TopDecl::Interface(i) => {
                    g.insert(i.name.name.clone());
                }
                TopDecl::Perspective(p) => {
                    g.insert(p.name.name.clone());
                }
                _ => {}
            }
        }
        // synthesized by the form machinery / json generator
        for s in ["IndexError", "KeyError", "JsonError", "ParseError", "ClosureViolation"] {
            g.insert(s.to_string());
        }
        Lint { globals: g, scopes: vec![], found: vec![], _src: src }
    }

    fn known(&self, n: &str) -> bool {
        self.globals.contains(n) || self.scopes.iter().rev().any(|s| s.contains_key(n))
    }
    fn local_arity(&self, n: &str) -> Option<usize> {
        for s in self.scopes.iter().rev() {
            if let Some(a) = s.get(n) {
                return *a;
            }
        }
        None
    }
    fn bind(&mut self, n: &str) {
        self.bind_ty(n, None);
    }
    fn bind_ty(&mut self, n: &str, ty: Option<&TypeExpr>) {
        let arity = match ty {
            Some(TypeExpr::Function { params, .. }) => Some(params.len()),
            _ => None,
        };
        if let Some(s) = self.scopes.last_mut() {
            s.insert(n.to_string(), arity);
        }
    }
    fn push(&mut self) {
        self.scopes.push(HashMap::new());
    }
    fn pop(&mut self) {
        self.scopes.pop();
    }
    fn miss(&mut self, sp: Span, what: String) {
        self.found.push((sp, what));
    }

    pub fn run(&mut self, p: &Program) {
        for it in &p.items {
            match it {
                TopDecl::Fn(f) => self.fn_decl(f),
                TopDecl::Locus(l) => self.locus(l),
                TopDecl::Const(c) => {
                    self.push();
                    self.expr(&c.value);
                    self.pop();
                }
                _ => {}
            }
        }
    }

    fn params(&mut self, ps: &[Param]) {
        for p in ps {
            if let Some(d) = &p.default {
                self.expr(d);
            }
            self.bind_ty(&p.name.name, Some(&p.ty));
        }
    }

    fn fn_decl(&mut self, f: &FnDecl) {
        // `__json_parse_*` / `__json_to_json_*` are generator output.
        if f.name.name.starts_with("__json_") {
            return;
        }
        self.push();
        self.params(&f.params);
        self.block(&f.body);
        self.pop();
    }

    fn locus(&mut self, l: &LocusDecl) {
        for m in &l.members {
            match m {
                LocusMember::Params(pb) => {
                    self.push();
                    for p in &pb.params {
                        if let ParamInit::Value(e) = &p.init {
                            self.expr(e);
                        }
                    }
                    self.pop();
                }
                LocusMember::Fn(f) => self.fn_decl(f),
                LocusMember::Lifecycle(lc) => {
                    self.push();
                    self.params(&lc.params);
                    self.block(&lc.body);
                    self.pop();
                }
                LocusMember::Mode(md) => {
                    self.push();
                    self.params(&md.params);
                    self.block(&md.body);
                    self.pop();
                }
                LocusMember::Failure(fd) => {
                    self.push();
                    self.params(&fd.params);
                    self.block(&fd.body);
                    self.pop();
                }
                _ => {}
            }
        }
    }

    fn block(&mut self, b: &Block) {
        self.push();
        for s in &b.stmts {
            self.stmt(s);
        }
        if let Some(t) = &b.tail {
            self.expr(t);
        }
        self.pop();
    }

    fn if_stmt(&mut self, i: &IfStmt) {
        self.expr(&i.cond);
        self.block(&i.then_block);
        if let Some(eb) = &i.else_block {
            match eb.as_ref() {
                ElseBranch::Else(b) => self.block(b),
                ElseBranch::ElseIf(ii) => self.if_stmt(ii),
            }
        }
    }

    fn pattern(&mut self, p: &Pattern) {
        match p {
            Pattern::Binding(id) => self.bind(&id.name),
            Pattern::Constructor { args, .. } => {
                for a in args {
                    self.pattern(a);
                }
            }
            Pattern::Tuple(ps, _) => {
                for a in ps {
                    self.pattern(a);
                }
            }
            _ => {}
        }
    }

    fn match_stmt(&mut self, m: &MatchStmt) {
        self.expr(&m.scrutinee);
        for arm in &m.arms {
            self.push();
            self.pattern(&arm.pattern);
            if let Some(g) = &arm.guard {
                self.expr(g);
            }
            match &arm.body {
                MatchArmBody::Expr(e) => self.expr(e),
                MatchArmBody::Block(b) => self.block(b),
            }
            self.pop();
        }
    }

    fn disp(&mut self, d: &OrDisposition) {
        match d {
            OrDisposition::Substitute(e) | OrDisposition::Fail(e, _) => {
                self.push();
                self.bind("err");
                self.expr(e);
                self.pop();
            }
            _ => {}
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Let { name, value, ty, .. } => {
                self.expr(value);
                self.bind_ty(&name.name, ty.as_ref());
            }
            Stmt::LetTuple { names, value, .. } => {
                self.expr(value);
                for n in names {
                    self.bind(&n.name);
                }
            }
            Stmt::Assign { target, value, .. } => {
                if target.head.name != "self" && !self.known(&target.head.name) {
                    self.miss(target.head.span, format!("assignment to unknown `{}`", target.head.name));
                }
                for seg in &target.tail {
                    if let LValueSeg::Index(e) = seg {
                        self.expr(e);
                    }
                }
                self.expr(value);
            }
            Stmt::If(i) => self.if_stmt(i),
            Stmt::Match(m) => self.match_stmt(m),
            Stmt::For { name, iter, body, .. } => {
                self.expr(iter);
                self.push();
                self.bind(&name.name);
                self.block(body);
                self.pop();
            }
            Stmt::While { cond, body, .. } => {
                self.expr(cond);
                self.block(body);
            }
            Stmt::Return(Some(e), _) => self.expr(e),
            Stmt::Fail { value, .. } => self.expr(value),
            Stmt::Block(b) => self.block(b),
            Stmt::Recovery { args, .. } => {
                for a in args {
                    self.expr(a);
                }
            }
            Stmt::Violate { payload: Some(e), .. } => self.expr(e),
            Stmt::Send { subject, value, or_disposition, .. } => {
                // a topic name on the left is a global; a string literal is fine
                self.expr(subject);
                self.expr(value);
                if let Some(d) = or_disposition {
                    self.disp(d);
                }
            }
            Stmt::ShmWrite { max, binding, body, .. } => {
                self.expr(max);
                self.push();
                self.bind(&binding.name);
                self.block(body);
                self.pop();
            }
            Stmt::Expr(e) => self.expr(e),
            _ => {}
        }
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Ident(id) => {
                if !self.known(&id.name) {
                    self.miss(id.span, format!("unknown name `{}`", id.name));
                }
            }
            Expr::Path(_) | Expr::Literal(..) | Expr::KwSelf(_) => {}
            Expr::Binary { left, right, .. } => {
                self.expr(left);
                self.expr(right);
            }
            Expr::Unary { operand, .. } => self.expr(operand),
            Expr::Call { callee, args, span } => {
                if let Expr::Ident(id) = callee.as_ref() {
                    if let Some(n) = self.local_arity(&id.name) {
                        if n != args.len() {
                            self.miss(*span, format!(
                                "call through fn value `{}` with {} argument(s); its type takes {}",
                                id.name, args.len(), n));
                        }
                    }
                }
                self.expr(callee);
                for a in args {
                    self.expr(a);
                }
            }
            Expr::Field { receiver, .. } => self.expr(receiver),
            Expr::Path2 { receiver, .. } => self.expr(receiver),
            Expr::Index { receiver, index, .. } => {
                self.expr(receiver);
                self.expr(index);
            }
            Expr::Tuple(es, _) | Expr::Array(es, _) => {
                for x in es {
                    self.expr(x);
                }
            }
            Expr::Struct { path, inits, .. } => {
                if path.segments.len() == 1 {
                    let n = &path.segments[0].name;
                    if !self.known(n) {
                        self.miss(path.span, format!("struct literal of unknown type `{}`", n));
                    }
                }
                for i in inits {
                    self.expr(&i.value);
                }
            }
            Expr::Block(b) => self.block(b),
            Expr::If(i) => self.if_stmt(i),
            Expr::Match(m) => self.match_stmt(m),
            Expr::Sum(x, _) | Expr::Prod(x, _) => self.expr(x),
            Expr::Approx { left, right, tolerance, .. } => {
                self.expr(left);
                self.expr(right);
                self.expr(tolerance);
            }
            Expr::Range { lo, hi, .. } => {
                self.expr(lo);
                self.expr(hi);
            }
            Expr::ArrayRepeat { val, .. } => self.expr(val),
            Expr::Or { inner, disposition, .. } => {
                self.expr(inner);
                self.disp(disposition);
            }
        }
    }
}
NAMES_EOF
(cd "$SCRATCH/checker" && cargo build --release --offline -q)

# 5. self-test
T=$(mktemp -d)
cat > "$T/broken.hl" <<'EOF_BROKEN'
fn main() {
    let x: Int = "not an int";
    println("x=", y);
}
EOF_BROKEN
if "$BIN" "$T/broken.hl" >/dev/null; then
    echo "self-test failed: the broken program was accepted" >&2; exit 2
fi
"$BIN" "$SCRATCH/src/play/examples/jobqueue.hl" \
       "$SCRATCH/src/crates/hale-codegen/tests/fixtures/examples/05-bus/main.hl" >/dev/null || {
    echo "self-test failed: a corpus example was rejected" >&2; exit 2; }
rm -rf "$T"
echo "checker self-test ok (broken program rejected, corpus examples accepted)" >&2

# 6. the bench programs
if [ "$#" -gt 0 ]; then
    FILES=("$@")
else
    mapfile -t FILES < <(find "$REPO/benches" "$REPO/xproc/hale" -name '*.hl' 2>/dev/null | sort)
fi
if [ "${#FILES[@]}" -eq 0 ]; then
    echo "no .hl files found" >&2; exit 2
fi
exec "$BIN" "${FILES[@]}"
