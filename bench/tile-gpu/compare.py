#!/usr/bin/env python3
"""Reruns each prepared check (bench/tile-gpu/prepare) through real Triton on a CUDA GPU
and prints, per kernel, the largest difference between the tile interpreter's outputs
and the GPU's, on the very same input bytes. Usage: compare.py DIR [DIR ...]"""
import importlib.util, json, math, os, sys

import torch

DT = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64,
      "i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64, "u8": torch.uint8}


def load(path, dtype, shape):
    data = bytearray(open(path, "rb").read())
    return torch.frombuffer(data, dtype=DT[dtype]).clone().reshape(shape)


def run(d):
    m = json.load(open(os.path.join(d, "manifest.json")))
    spec = importlib.util.spec_from_file_location("k_" + os.path.basename(d).replace("-", "_"), os.path.join(d, "kernel_triton.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    entry = getattr(mod, m["kernel"])
    args, outs = [], []
    for a in m["args"]:
        if "shape" in a:
            t = load(os.path.join(d, "arg.%s.bin" % a["name"]), a["dtype"], a["shape"]).cuda()
            args.append(t)
            if a["output"]:
                outs.append((a, t))
        else:
            args.append(a["value"])
    entry(*args)
    torch.cuda.synchronize()
    worst, nan_gpu, nan_interp, count = 0.0, 0, 0, 0
    for a, t in outs:
        gpu = t.cpu().double().reshape(-1)
        ref = load(os.path.join(d, "interp.%s.bin" % a["name"]), a["dtype"], a["shape"]).double().reshape(-1)
        count += gpu.numel()
        nan_gpu += int(torch.isnan(gpu).sum())
        nan_interp += int(torch.isnan(ref).sum())
        both = torch.isfinite(gpu) & torch.isfinite(ref)
        if both.any():
            worst = max(worst, float((gpu[both] - ref[both]).abs().max()))
        # non-finite positions must agree (NaN with NaN, +inf with +inf)
        mism = (~both) & ~((torch.isnan(gpu) & torch.isnan(ref)) | (gpu == ref))
        if mism.any():
            worst = math.inf
    return worst, nan_gpu, nan_interp, count


def main():
    print("GPU:", torch.cuda.get_device_name(0), "| torch", torch.__version__, "| triton", __import__("triton").__version__)
    print("%-52s %14s %9s %9s %9s" % ("check", "max|gpu-int|", "NaN gpu", "NaN int", "elements"))
    for root in sys.argv[1:]:
        for name in sorted(os.listdir(root)):
            d = os.path.join(root, name)
            try:
                w, ng, ni, c = run(d)
                print("%-52s %14.3g %9d %9d %9d" % (name, w, ng, ni, c))
            except Exception as e:  # a wrong variant may crash on the GPU too: say so
                print("%-52s %s: %s" % (name, type(e).__name__, str(e).splitlines()[0][:80] if str(e) else ""))


if __name__ == "__main__":
    main()
