//! Which requests the server answers: only those addressed to it by a name
//! of this machine's loopback (or the address it was bound to) and, when they
//! carry an `Origin`, sent by its own page. This keeps other web sites out,
//! both by cross-origin requests and by DNS rebinding (a foreign name that
//! resolves to 127.0.0.1 arrives with that name in `Host`).

use std::net::SocketAddr;

/// The addresses a request may name: the bound one, and the loopback names on its port.
#[derive(Clone, Debug)]
pub struct Guard {
    hosts: Vec<String>,
}

impl Guard {
    pub fn new(bound: SocketAddr) -> Guard {
        let port = bound.port();
        let mut hosts = vec![
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ];
        let own = bound.to_string();
        if !hosts.contains(&own) {
            hosts.push(own);
        }
        Guard { hosts }
    }

    /// Why a request with these `Host` and `Origin` headers is refused, if it is.
    pub fn refusal(&self, host: Option<&str>, origin: Option<&str>) -> Option<String> {
        let Some(host) = host else {
            return Some("a request without a Host header".to_string());
        };
        if !self.is_own(host) {
            return Some(format!("a request for the host '{host}'"));
        }
        match origin {
            None => None,
            Some(origin) => match origin.strip_prefix("http://") {
                Some(rest) if self.is_own(rest) => None,
                _ => Some(format!("a request from the origin '{origin}'")),
            },
        }
    }

    fn is_own(&self, host: &str) -> bool {
        self.hosts
            .iter()
            .any(|own| own.eq_ignore_ascii_case(host.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_foreign_hosts_and_origins() {
        let guard = Guard::new("127.0.0.1:8017".parse().unwrap());
        assert_eq!(guard.refusal(Some("127.0.0.1:8017"), None), None);
        assert_eq!(guard.refusal(Some("localhost:8017"), None), None);
        assert_eq!(
            guard.refusal(Some("localhost:8017"), Some("http://localhost:8017")),
            None
        );
        assert!(guard.refusal(None, None).is_some());
        assert!(guard.refusal(Some("evil.example:8017"), None).is_some());
        assert!(guard.refusal(Some("127.0.0.1:8018"), None).is_some());
        assert!(guard.refusal(Some("127.0.0.1"), None).is_some());
        for origin in [
            "http://evil.example",
            "https://127.0.0.1:8017",
            "http://127.0.0.1:8017.evil.example",
            "null",
        ] {
            assert!(
                guard
                    .refusal(Some("127.0.0.1:8017"), Some(origin))
                    .is_some(),
                "{origin}"
            );
        }
    }
}
