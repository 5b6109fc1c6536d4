// json_parse (Rust sibling)
// Shape: the text {"sym": "BTCUSD", "bid": 50000, "ask": 50010, "bidsz": 12, "asksz": 8,
// "ts": 1700000000000, "seq": S} (S = HALEBENCH_SEED) is built with format! before t0;
// timed: 200,000 parses of it into Quote{sym: String, bid, ask, bidsz, asksz, ts, seq: i64},
// adding bid + ask + seq to total each time.
// Fairness: std has no JSON parser (and the suite is std only), so this is a hand-written
// parser for exactly this flat object (string and integer values, no escapes, no floats, no
// nesting; keys matched against the seven Quote fields, all seven required). It scans every
// byte, checks the syntax and allocates sym as a fresh String each parse, but being
// schema-specialised it FLATTERS Rust against the general-purpose parsers of the Go, JS and
// Python siblings. parse_quote is #[inline(never)] and the text passes through
// std::hint::black_box every iteration so no parse is hoisted or folded.
use std::hint::black_box;
use std::time::Instant;

const ITERS: i64 = 200_000;

fn seed_from_env() -> i64 {
    match std::env::var("HALEBENCH_SEED") {
        Ok(s) if !s.is_empty() => match s.parse::<i64>() {
            Ok(v) if (0..2_147_483_648).contains(&v) => v,
            _ => {
                eprintln!("invalid HALEBENCH_SEED: {}", s);
                std::process::exit(2);
            }
        },
        _ => 0,
    }
}

#[allow(dead_code)]
struct Quote {
    sym: String,
    bid: i64,
    ask: i64,
    bidsz: i64,
    asksz: i64,
    ts: i64,
    seq: i64,
}

struct Cursor<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn skip_ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn expect(&mut self, ch: u8) -> Option<()> {
        self.skip_ws();
        if self.i < self.b.len() && self.b[self.i] == ch {
            self.i += 1;
            Some(())
        } else {
            None
        }
    }

    // A JSON string without escapes, borrowed from the text.
    fn string(&mut self) -> Option<&'a str> {
        self.expect(b'"')?;
        let start = self.i;
        while self.i < self.b.len() && self.b[self.i] != b'"' {
            let ch = self.b[self.i];
            if ch == b'\\' || ch < 0x20 {
                return None;
            }
            self.i += 1;
        }
        if self.i >= self.b.len() {
            return None;
        }
        let s = &self.text[start..self.i];
        self.i += 1;
        Some(s)
    }

    // A JSON integer (optional minus, no leading zeros, no fraction/exponent), range-checked.
    fn int(&mut self) -> Option<i64> {
        self.skip_ws();
        let b = self.b;
        let mut neg = false;
        if self.i < b.len() && b[self.i] == b'-' {
            neg = true;
            self.i += 1;
        }
        if self.i >= b.len() || !b[self.i].is_ascii_digit() {
            return None;
        }
        if b[self.i] == b'0' && self.i + 1 < b.len() && b[self.i + 1].is_ascii_digit() {
            return None;
        }
        let mut v: i64 = 0;
        while self.i < b.len() && b[self.i].is_ascii_digit() {
            let d = (b[self.i] - b'0') as i64;
            v = v.checked_mul(10)?.checked_add(d)?;
            self.i += 1;
        }
        if self.i < b.len() && matches!(b[self.i], b'.' | b'e' | b'E') {
            return None;
        }
        Some(if neg { -v } else { v })
    }
}

#[inline(never)]
fn parse_quote(text: &str) -> Option<Quote> {
    let mut c = Cursor { text, b: text.as_bytes(), i: 0 };
    let mut q = Quote { sym: String::new(), bid: 0, ask: 0, bidsz: 0, asksz: 0, ts: 0, seq: 0 };
    let mut sym: Option<&str> = None;
    let mut seen = 0u32;
    c.expect(b'{')?;
    loop {
        let key = c.string()?;
        c.expect(b':')?;
        let bit = match key {
            "sym" => {
                sym = Some(c.string()?);
                1 << 0
            }
            _ => {
                let (dst, bit) = match key {
                    "bid" => (&mut q.bid, 1 << 1),
                    "ask" => (&mut q.ask, 1 << 2),
                    "bidsz" => (&mut q.bidsz, 1 << 3),
                    "asksz" => (&mut q.asksz, 1 << 4),
                    "ts" => (&mut q.ts, 1 << 5),
                    "seq" => (&mut q.seq, 1 << 6),
                    _ => return None,
                };
                *dst = c.int()?;
                bit
            }
        };
        seen |= bit;
        c.skip_ws();
        match c.b.get(c.i) {
            Some(b',') => c.i += 1,
            Some(b'}') => {
                c.i += 1;
                break;
            }
            _ => return None,
        }
    }
    c.skip_ws();
    if c.i != c.b.len() || seen != 0x7f {
        return None;
    }
    q.sym = sym?.to_owned();
    Some(q)
}

fn main() {
    let s = seed_from_env();
    let text = format!(
        "{{\"sym\": \"BTCUSD\", \"bid\": 50000, \"ask\": 50010, \"bidsz\": 12, \"asksz\": 8, \"ts\": 1700000000000, \"seq\": {}}}",
        s
    );

    let mut total: i64 = 0;
    let t0 = Instant::now();
    for _ in 0..ITERS {
        let q = match parse_quote(black_box(text.as_str())) {
            Some(q) => q,
            None => {
                eprintln!("parse error");
                std::process::exit(1);
            }
        };
        total += q.bid + q.ask + q.seq;
    }
    let total = black_box(total);
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=iters:{},total:{}", ITERS, total);
}
