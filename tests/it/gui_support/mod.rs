//! `catena gui` for the tests: the real binary on a free port, and a bare
//! HTTP/1.1 client that sends paths and headers exactly as written (a
//! browser or a client library would tidy `/../` away before the server
//! could refuse it).
#![allow(dead_code)]

pub mod browser;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `catena gui --port 0`, killed on drop.
pub struct GuiServer {
    child: Child,
    /// `127.0.0.1:PORT`
    pub address: String,
}

impl GuiServer {
    pub fn start(extra: &[&str]) -> GuiServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_catena"))
            .args(["gui", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("cannot start catena gui");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        GuiServer { child, address }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Sends a request with the server's own `Host` and the given extra headers.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&str>,
    ) -> (u16, String) {
        let host = self.address.clone();
        let mut all = vec![("Host", host.as_str())];
        all.extend_from_slice(headers);
        raw_request(&self.address, method, path, &all, body)
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, &[], None)
    }

    /// POSTs JSON from the page's origin.
    pub fn post(&self, path: &str, json: &str) -> (u16, String) {
        let origin = format!("http://{}", self.address);
        self.request(
            "POST",
            path,
            &[("Origin", &origin), ("Content-Type", "application/json")],
            Some(json),
        )
    }
}

impl Drop for GuiServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request with exactly these headers; the status and the body.
pub fn raw_request(
    address: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut request = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    let body = body.unwrap_or("");
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let response = String::from_utf8_lossy(&response).to_string();
    let (head, rest) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, body)
}

fn dechunk(mut text: &str) -> String {
    let mut body = String::new();
    while let Some((size, rest)) = text.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || rest.len() < size {
            break;
        }
        body.push_str(&rest[..size]);
        text = rest[size..].trim_start_matches("\r\n");
    }
    body
}
