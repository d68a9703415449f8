//! The one sound the launcher makes, when the table asks for it (off by default): a short
//! two-note chime for "your turn", after a hand-off or a bot's move. It is computed here (no
//! sound file is shipped or fetched) and played on a thread of its own, so that the window
//! never waits on the sound card; a machine without one stays silent. On Linux it goes
//! through ALSA's library opened at run time ([`alsa`]), so building needs no system headers;
//! elsewhere through `tinyaudio` (Core Audio, DirectSound).

#[cfg(target_os = "linux")]
mod alsa;

/// Why a sound could not be played. The window stays silent on any of these.
#[derive(Debug, thiserror::Error)]
pub enum SoundError {
    /// The system's sound library is not installed (or is not the one expected).
    #[error("no sound: {library} could not be opened ({reason})")]
    NoLibrary {
        /// The library's file name.
        library: &'static str,
        /// What the dynamic loader said.
        reason: String,
    },
    /// The sound device refused to open or to play.
    #[error("no sound on device `{device}`: {reason}")]
    Device {
        /// The device's name.
        device: String,
        /// What the sound system said.
        reason: String,
    },
}

/// Samples per second of the chime.
pub const RATE: usize = 44_100;

/// The "your turn" chime: two soft notes (a rising fifth, E5 then B5), each with a quick
/// attack and a gentle fade, mono, between −1 and 1, 0.42 s long, silent at both ends.
pub fn chime() -> Vec<f32> {
    let note = |freq: f32, start: f32, length: f32, t: f32| -> f32 {
        let t = t - start;
        if !(0.0..length).contains(&t) {
            return 0.0;
        }
        let attack = (t / 0.012).min(1.0);
        let fade = (1.0 - t / length).powi(2);
        let wave = (t * freq * std::f32::consts::TAU).sin()
            + 0.25 * (t * freq * 2.0 * std::f32::consts::TAU).sin();
        0.3 * attack * fade * wave
    };
    let total = 0.42;
    (0..(total * RATE as f32) as usize)
        .map(|i| {
            let t = i as f32 / RATE as f32;
            note(659.25, 0.0, 0.22, t) + note(987.77, 0.14, 0.28, t)
        })
        .collect()
}

/// Plays the chime without waiting for it; does nothing where no sound can be played.
pub fn play_chime() {
    let _ = std::thread::Builder::new()
        .name("veillee-sound".into())
        .spawn(|| {
            // Silence is the documented answer to a machine without sound: nothing to report.
            let _ = play(&chime());
        });
}

/// Plays mono samples at [`RATE`] on the system's default output, returning once heard.
#[cfg(target_os = "linux")]
fn play(samples: &[f32]) -> Result<(), SoundError> {
    alsa::play("default", samples, RATE as u32)
}

/// Plays mono samples at [`RATE`] on the system's default output, returning once heard.
#[cfg(not(target_os = "linux"))]
fn play(samples: &[f32]) -> Result<(), SoundError> {
    let samples = samples.to_vec();
    let length = samples.len();
    let params = tinyaudio::OutputDeviceParameters {
        channels_count: 1,
        sample_rate: RATE,
        channel_sample_count: RATE / 20,
    };
    let mut at = 0;
    let device = tinyaudio::run_output_device(params, move |data| {
        for sample in data.iter_mut() {
            *sample = samples.get(at).copied().unwrap_or(0.0);
            at += 1;
        }
    })
    .map_err(|error| SoundError::Device {
        device: "default".into(),
        reason: error.to_string(),
    })?;
    // Long enough for the last buffer to be heard, then the device is closed.
    std::thread::sleep(std::time::Duration::from_secs_f64(
        length as f64 / RATE as f64 + 0.2,
    ));
    drop(device);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chime_is_short_audible_never_clips_and_ends_in_silence() {
        let samples = chime();
        let seconds = samples.len() as f32 / RATE as f32;
        assert!((0.3..0.6).contains(&seconds), "{seconds} s");
        let peak = samples.iter().fold(0.0f32, |a, s| a.max(s.abs()));
        assert!(peak > 0.2 && peak < 1.0, "peak {peak}");
        assert!(samples[0].abs() < 0.01, "starts from silence");
        let tail = &samples[samples.len() - 200..];
        assert!(tail.iter().all(|s| s.abs() < 0.01), "ends in silence");
        // Two notes: the second begins while the first fades, and both are heard.
        let energy = |from: f32, to: f32| -> f32 {
            let range = (from * RATE as f32) as usize..(to * RATE as f32) as usize;
            samples[range].iter().map(|s| s * s).sum()
        };
        assert!(energy(0.0, 0.1) > 1.0 && energy(0.2, 0.3) > 1.0);
    }
}
