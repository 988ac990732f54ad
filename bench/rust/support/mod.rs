//! The generated policies the native benches share.

/// The JSON document of a policy with `n` rules spread over the three lists and every rule
/// form: commands (with and without a middle wildcard), anchored and any-depth paths, exact
/// files, domains and MCP tools.
pub fn policy_document(n: usize) -> String {
    let (mut allow, mut ask, mut deny) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        let rule = match i % 6 {
            0 => format!("Bash(tool{i} run *)"),
            1 => format!("Bash(cmd{i} --flag{i} * end)"),
            2 => format!("Read(./dir{i}/**/*.txt)"),
            3 => format!("Edit(//srv/app{i}/**)"),
            4 if i % 4 == 0 => format!("Read(secret{i}.key)"),
            4 => format!("WebFetch(domain:*.host{i}.example.com)"),
            _ if i % 4 == 1 => format!("Read(*.ext{i})"),
            _ => format!("mcp__server{i}__get_*"),
        };
        match i % 3 {
            0 => allow.push(rule),
            1 => ask.push(rule),
            _ => deny.push(rule),
        }
    }
    serde_json::json!({ "permissions": { "allow": allow, "ask": ask, "deny": deny } }).to_string()
}
