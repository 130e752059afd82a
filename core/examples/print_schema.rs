fn main() {
    let id = std::env::args().nth(1).unwrap();
    let e = kruise_core::registry::lookup(&id).unwrap();
    println!("{}", serde_json::to_string_pretty(&e.schema().unwrap()).unwrap());
}
