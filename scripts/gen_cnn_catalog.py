#!/usr/bin/env python3
"""Builds resources/catalogs/cnn_models.json: per-layer tables of the built-in CNNs.

The networks are written out below as architecture definitions (convolutions with their
output size, channels, kernel, stride and padding; batch norms; ReLUs; pools; residual
adds; fully connected layers) and every table entry is computed from them, so the
numbers can be checked and regenerated:

    python3 scripts/gen_cnn_catalog.py            # writes the catalog, prints totals
    python3 scripts/gen_cnn_catalog.py --check    # prints totals, writes nothing

Python 3 standard library only. Layout: resources/catalogs/README.md.

Conventions (all per sample, i.e. per image):
  * conv / fc: forward_flops = 2 * M * N * K (a multiply-add is 2 FLOPs) plus one add per
    output element when the layer has a bias. gemm = [M, N, K]: M = output pixels (1 for
    fc), N = output channels, K = input channels x kernel area.
  * norm (batch norm, training mode): 8 FLOPs per element (mean 1, variance 3,
    normalise 2, scale and shift 2). params = 2 x channels (gamma, beta); the running
    statistics are buffers, not parameters.
  * activation (ReLU): 1 FLOP per element. Dropout ("other"): 1 FLOP per element.
  * pool: kernel-area FLOPs (compares or adds) per output element; global average pool:
    one add per input element.
  * add (residual): 1 FLOP per output element; input_elements counts both operands.
  * concat ("other", Inception): a copy, 0 FLOPs; input = output = the joined tensor.
  * softmax ("other"): 3 FLOPs per class (exp, sum, divide); the loss is not counted.
"""

import argparse
import json
import os
import sys

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUTPUT = os.path.join(SCRIPT_DIR, "..", "resources", "catalogs", "cnn_models.json")

BN_FLOPS_PER_ELEMENT = 8
SOFTMAX_FLOPS_PER_CLASS = 3


def pair(v):
    """An int or (h, w) pair as an (h, w) tuple."""
    return (v, v) if isinstance(v, int) else tuple(v)


class Shape:
    """Activation shape of one sample: channels x height x width."""

    def __init__(self, c, h, w):
        self.c, self.h, self.w = c, h, w

    def elements(self):
        return self.c * self.h * self.w

    def __repr__(self):
        return "%dx%dx%d" % (self.h, self.w, self.c)


class Net:
    """Collects the layer table of one network while its definition is walked."""

    def __init__(self, model_id, name, source, input_shape):
        self.model_id = model_id
        self.name = name
        self.source = source
        self.input_shape = input_shape
        self.layers = []

    def _add(self, name, kind, flops, params, inp, out, gemm=None):
        layer = {"name": name, "kind": kind, "forward_flops": int(flops),
                 "params": int(params), "input_elements": int(inp),
                 "output_elements": int(out)}
        if gemm is not None:
            layer["gemm"] = [int(g) for g in gemm]
        self.layers.append(layer)

    # --- layers -------------------------------------------------------------------------
    def conv(self, name, x, cout, kernel, stride=1, padding=0, bias=False):
        kh, kw = pair(kernel)
        sh, sw = pair(stride)
        ph, pw = pair(padding)
        oh = (x.h + 2 * ph - kh) // sh + 1
        ow = (x.w + 2 * pw - kw) // sw + 1
        y = Shape(cout, oh, ow)
        m, n, k = oh * ow, cout, x.c * kh * kw
        flops = 2 * m * n * k + (m * n if bias else 0)
        params = n * k + (n if bias else 0)
        self._add(name, "conv", flops, params, x.elements(), y.elements(), [m, n, k])
        return y

    def bn(self, name, x):
        self._add(name, "norm", BN_FLOPS_PER_ELEMENT * x.elements(), 2 * x.c,
                  x.elements(), x.elements())
        return x

    def relu(self, name, x):
        self._add(name, "activation", x.elements(), 0, x.elements(), x.elements())
        return x

    def pool(self, name, x, kernel, stride, padding=0):
        """Max or average pooling: kernel-area compares/adds per output element."""
        oh = (x.h + 2 * padding - kernel) // stride + 1
        ow = (x.w + 2 * padding - kernel) // stride + 1
        y = Shape(x.c, oh, ow)
        self._add(name, "pool", kernel * kernel * y.elements(), 0, x.elements(),
                  y.elements())
        return y

    def global_avgpool(self, name, x):
        y = Shape(x.c, 1, 1)
        self._add(name, "pool", x.elements(), 0, x.elements(), y.elements())
        return y

    def add(self, name, a, b):
        assert (a.c, a.h, a.w) == (b.c, b.h, b.w), (name, a, b)
        self._add(name, "add", a.elements(), 0, a.elements() + b.elements(), a.elements())
        return a

    def concat(self, name, xs):
        assert all((x.h, x.w) == (xs[0].h, xs[0].w) for x in xs), (name, xs)
        y = Shape(sum(x.c for x in xs), xs[0].h, xs[0].w)
        self._add(name, "other", 0, 0, y.elements(), y.elements())
        return y

    def dropout(self, name, x):
        self._add(name, "other", x.elements(), 0, x.elements(), x.elements())
        return x

    def fc(self, name, x, out):
        k = x.elements()  # flattened input
        self._add(name, "fc", 2 * k * out + out, k * out + out, k, out, [1, out, k])
        return Shape(out, 1, 1)

    def softmax(self, name, x):
        self._add(name, "other", SOFTMAX_FLOPS_PER_CLASS * x.elements(), 0, x.elements(),
                  x.elements())
        return x

    # --- composites ---------------------------------------------------------------------
    def conv_bn_relu(self, name, x, cout, kernel, stride=1, padding=0):
        """Convolution without bias, batch norm, ReLU (ResNet stem, Inception BasicConv2d)."""
        x = self.conv(name + ".conv", x, cout, kernel, stride, padding)
        x = self.bn(name + ".bn", x)
        return self.relu(name + ".relu", x)

    # --- totals -------------------------------------------------------------------------
    def totals(self):
        params = sum(l["params"] for l in self.layers)
        flops = sum(l["forward_flops"] for l in self.layers)
        macs = sum(l["gemm"][0] * l["gemm"][1] * l["gemm"][2]
                   for l in self.layers if "gemm" in l)
        return params, macs, flops


# ---------------------------------------------------------------------------------------
# ResNet v1.5 (He et al. 2016, Table 1). v1.5 puts the stride-2 of a downsampling
# bottleneck on its 3x3 convolution (v1: on the first 1x1), as torchvision and NVIDIA's
# DeepLearningExamples do. Convolutions have no bias; the classifier has one.
# ---------------------------------------------------------------------------------------
def bottleneck(net, name, x, width, stride):
    out_c = 4 * width
    y = net.conv(name + ".conv1", x, width, 1)
    y = net.bn(name + ".bn1", y)
    y = net.relu(name + ".relu1", y)
    y = net.conv(name + ".conv2", y, width, 3, stride, 1)
    y = net.bn(name + ".bn2", y)
    y = net.relu(name + ".relu2", y)
    y = net.conv(name + ".conv3", y, out_c, 1)
    y = net.bn(name + ".bn3", y)
    if stride != 1 or x.c != out_c:
        shortcut = net.conv(name + ".downsample.conv", x, out_c, 1, stride)
        shortcut = net.bn(name + ".downsample.bn", shortcut)
    else:
        shortcut = x
    y = net.add(name + ".add", y, shortcut)
    return net.relu(name + ".relu3", y)


def resnet(model_id, name, blocks_per_stage):
    net = Net(model_id, name,
              "He et al. 2016 (Deep Residual Learning), Table 1; v1.5 stride placement "
              "(stride 2 on the 3x3 conv) as in torchvision and NVIDIA DeepLearningExamples",
              Shape(3, 224, 224))
    x = net.conv("conv1", net.input_shape, 64, 7, 2, 3)
    x = net.bn("bn1", x)
    x = net.relu("relu", x)
    x = net.pool("maxpool", x, 3, 2, 1)
    for stage, (blocks, width) in enumerate(zip(blocks_per_stage, (64, 128, 256, 512))):
        for b in range(blocks):
            stride = 2 if (b == 0 and stage > 0) else 1
            x = bottleneck(net, "layer%d.%d" % (stage + 1, b), x, width, stride)
    x = net.global_avgpool("avgpool", x)
    x = net.fc("fc", x, 1000)
    net.softmax("softmax", x)
    return net


# ---------------------------------------------------------------------------------------
# VGG-16 (Simonyan & Zisserman 2015, Table 1, configuration D): 3x3 convolutions with
# bias, padding 1; 2x2/2 max pools; three fully connected layers with dropout.
# ---------------------------------------------------------------------------------------
def vgg16():
    net = Net("vgg16", "VGG-16",
              "Simonyan & Zisserman 2015 (Very Deep Convolutional Networks), Table 1, "
              "configuration D; no batch norm",
              Shape(3, 224, 224))
    x = net.input_shape
    stages = [(64, 2), (128, 2), (256, 3), (512, 3), (512, 3)]
    for s, (channels, convs) in enumerate(stages):
        for c in range(convs):
            layer = "conv%d_%d" % (s + 1, c + 1)
            x = net.conv(layer, x, channels, 3, 1, 1, bias=True)
            x = net.relu(layer + ".relu", x)
        x = net.pool("pool%d" % (s + 1), x, 2, 2)
    x = net.fc("fc6", x, 4096)
    x = net.relu("fc6.relu", x)
    x = net.dropout("fc6.dropout", x)
    x = net.fc("fc7", x, 4096)
    x = net.relu("fc7.relu", x)
    x = net.dropout("fc7.dropout", x)
    x = net.fc("fc8", x, 1000)
    net.softmax("softmax", x)
    return net


# ---------------------------------------------------------------------------------------
# Inception-v3 (Szegedy et al. 2016, Table 1), 299x299 input, module shapes as in the
# TF-slim / torchvision reference implementation. Every convolution is a BasicConv2d
# (conv without bias, batch norm, ReLU). The auxiliary classifier is left out: it only
# runs in training, adds 3.3M parameters and is often disabled; the table is the main
# network.
# ---------------------------------------------------------------------------------------
def inception_a(net, name, x, pool_features):
    b1 = net.conv_bn_relu(name + ".branch1x1", x, 64, 1)
    b5 = net.conv_bn_relu(name + ".branch5x5_1", x, 48, 1)
    b5 = net.conv_bn_relu(name + ".branch5x5_2", b5, 64, 5, 1, 2)
    b3 = net.conv_bn_relu(name + ".branch3x3dbl_1", x, 64, 1)
    b3 = net.conv_bn_relu(name + ".branch3x3dbl_2", b3, 96, 3, 1, 1)
    b3 = net.conv_bn_relu(name + ".branch3x3dbl_3", b3, 96, 3, 1, 1)
    bp = net.pool(name + ".branch_pool.avgpool", x, 3, 1, 1)
    bp = net.conv_bn_relu(name + ".branch_pool", bp, pool_features, 1)
    return net.concat(name + ".concat", [b1, b5, b3, bp])


def inception_b(net, name, x):
    b3 = net.conv_bn_relu(name + ".branch3x3", x, 384, 3, 2)
    bd = net.conv_bn_relu(name + ".branch3x3dbl_1", x, 64, 1)
    bd = net.conv_bn_relu(name + ".branch3x3dbl_2", bd, 96, 3, 1, 1)
    bd = net.conv_bn_relu(name + ".branch3x3dbl_3", bd, 96, 3, 2)
    bp = net.pool(name + ".branch_pool.maxpool", x, 3, 2)
    return net.concat(name + ".concat", [b3, bd, bp])


def inception_c(net, name, x, c7):
    b1 = net.conv_bn_relu(name + ".branch1x1", x, 192, 1)
    b7 = net.conv_bn_relu(name + ".branch7x7_1", x, c7, 1)
    b7 = net.conv_bn_relu(name + ".branch7x7_2", b7, c7, (1, 7), 1, (0, 3))
    b7 = net.conv_bn_relu(name + ".branch7x7_3", b7, 192, (7, 1), 1, (3, 0))
    bd = net.conv_bn_relu(name + ".branch7x7dbl_1", x, c7, 1)
    bd = net.conv_bn_relu(name + ".branch7x7dbl_2", bd, c7, (7, 1), 1, (3, 0))
    bd = net.conv_bn_relu(name + ".branch7x7dbl_3", bd, c7, (1, 7), 1, (0, 3))
    bd = net.conv_bn_relu(name + ".branch7x7dbl_4", bd, c7, (7, 1), 1, (3, 0))
    bd = net.conv_bn_relu(name + ".branch7x7dbl_5", bd, 192, (1, 7), 1, (0, 3))
    bp = net.pool(name + ".branch_pool.avgpool", x, 3, 1, 1)
    bp = net.conv_bn_relu(name + ".branch_pool", bp, 192, 1)
    return net.concat(name + ".concat", [b1, b7, bd, bp])


def inception_d(net, name, x):
    b3 = net.conv_bn_relu(name + ".branch3x3_1", x, 192, 1)
    b3 = net.conv_bn_relu(name + ".branch3x3_2", b3, 320, 3, 2)
    b7 = net.conv_bn_relu(name + ".branch7x7x3_1", x, 192, 1)
    b7 = net.conv_bn_relu(name + ".branch7x7x3_2", b7, 192, (1, 7), 1, (0, 3))
    b7 = net.conv_bn_relu(name + ".branch7x7x3_3", b7, 192, (7, 1), 1, (3, 0))
    b7 = net.conv_bn_relu(name + ".branch7x7x3_4", b7, 192, 3, 2)
    bp = net.pool(name + ".branch_pool.maxpool", x, 3, 2)
    return net.concat(name + ".concat", [b3, b7, bp])


def inception_e(net, name, x):
    b1 = net.conv_bn_relu(name + ".branch1x1", x, 320, 1)
    b3 = net.conv_bn_relu(name + ".branch3x3_1", x, 384, 1)
    b3a = net.conv_bn_relu(name + ".branch3x3_2a", b3, 384, (1, 3), 1, (0, 1))
    b3b = net.conv_bn_relu(name + ".branch3x3_2b", b3, 384, (3, 1), 1, (1, 0))
    bd = net.conv_bn_relu(name + ".branch3x3dbl_1", x, 448, 1)
    bd = net.conv_bn_relu(name + ".branch3x3dbl_2", bd, 384, 3, 1, 1)
    bda = net.conv_bn_relu(name + ".branch3x3dbl_3a", bd, 384, (1, 3), 1, (0, 1))
    bdb = net.conv_bn_relu(name + ".branch3x3dbl_3b", bd, 384, (3, 1), 1, (1, 0))
    bp = net.pool(name + ".branch_pool.avgpool", x, 3, 1, 1)
    bp = net.conv_bn_relu(name + ".branch_pool", bp, 192, 1)
    return net.concat(name + ".concat", [b1, b3a, b3b, bda, bdb, bp])


def inception_v3():
    net = Net("inception-v3", "Inception-v3",
              "Szegedy et al. 2016 (Rethinking the Inception Architecture), Table 1; "
              "module shapes as in the TF-slim / torchvision reference; 299x299 input; "
              "auxiliary classifier left out",
              Shape(3, 299, 299))
    x = net.conv_bn_relu("Conv2d_1a_3x3", net.input_shape, 32, 3, 2)
    x = net.conv_bn_relu("Conv2d_2a_3x3", x, 32, 3)
    x = net.conv_bn_relu("Conv2d_2b_3x3", x, 64, 3, 1, 1)
    x = net.pool("maxpool1", x, 3, 2)
    x = net.conv_bn_relu("Conv2d_3b_1x1", x, 80, 1)
    x = net.conv_bn_relu("Conv2d_4a_3x3", x, 192, 3)
    x = net.pool("maxpool2", x, 3, 2)
    x = inception_a(net, "Mixed_5b", x, 32)
    x = inception_a(net, "Mixed_5c", x, 64)
    x = inception_a(net, "Mixed_5d", x, 64)
    x = inception_b(net, "Mixed_6a", x)
    x = inception_c(net, "Mixed_6b", x, 128)
    x = inception_c(net, "Mixed_6c", x, 160)
    x = inception_c(net, "Mixed_6d", x, 160)
    x = inception_c(net, "Mixed_6e", x, 192)
    x = inception_d(net, "Mixed_7a", x)
    x = inception_e(net, "Mixed_7b", x)
    x = inception_e(net, "Mixed_7c", x)
    assert (x.c, x.h, x.w) == (2048, 8, 8), x
    x = net.global_avgpool("avgpool", x)
    x = net.dropout("dropout", x)
    x = net.fc("fc", x, 1000)
    net.softmax("softmax", x)
    return net


# Published totals to check against: (parameters, multiply-adds) per 224x224 image
# (299x299 for Inception-v3). Parameter counts are those of the torchvision models (the
# Inception-v3 figure is 27,161,264 less the 3,326,696 of the auxiliary classifier);
# multiply-adds are the usual "GFLOPs" figures, which count one multiply-add as one.
EXPECTED = {
    "resnet50": (25557032, 4.09e9),
    "resnet101": (44549160, 7.80e9),
    "vgg16": (138357544, 15.47e9),
    "inception-v3": (23834568, 5.71e9),
}
TOLERANCE = 0.02


def to_json(nets):
    """The catalog text: readable, one layer per line."""
    out = ['{ "scalescope_catalog": 1,',
           '  "x-generated-by": "scripts/gen_cnn_catalog.py (do not edit by hand)",',
           '  "models": [']
    for i, net in enumerate(nets):
        out.append('  { "id": %s, "name": %s,' % (json.dumps(net.model_id),
                                                  json.dumps(net.name)))
        out.append('    "source": %s,' % json.dumps(net.source))
        out.append('    "input_elements": %d,' % net.input_shape.elements())
        out.append('    "layers": [')
        for j, layer in enumerate(net.layers):
            sep = "," if j + 1 < len(net.layers) else ""
            out.append("      " + json.dumps(layer, separators=(", ", ": ")) + sep)
        out.append("    ] }" + ("," if i + 1 < len(nets) else ""))
    out.append("] }")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=DEFAULT_OUTPUT, help="catalog file to write")
    parser.add_argument("--check", action="store_true",
                        help="print and check the totals, write nothing")
    args = parser.parse_args()

    nets = [resnet("resnet50", "ResNet-50 v1.5", (3, 4, 6, 3)),
            resnet("resnet101", "ResNet-101 v1.5", (3, 4, 23, 3)),
            vgg16(),
            inception_v3()]

    ok = True
    print("%-13s %7s %13s %10s %12s %12s  %s" % ("model", "layers", "params", "GMACs",
                                               "GFLOPs(all)", "expected", "check"))
    for net in nets:
        params, macs, flops = net.totals()
        exp_params, exp_macs = EXPECTED[net.model_id]
        good = (abs(params / exp_params - 1) <= TOLERANCE
                and abs(macs / exp_macs - 1) <= TOLERANCE)
        ok = ok and good
        print("%-13s %7d %13s %10.3f %12.3f %5.1fM/%5.2fG  %s" % (
            net.model_id, len(net.layers), "{:,}".format(params), macs / 1e9, flops / 1e9,
            exp_params / 1e6, exp_macs / 1e9, "ok" if good else "MISMATCH"))
    print("GMACs: conv + fc multiply-adds; GFLOPs(all): forward_flops summed over every "
          "layer (2 per multiply-add, plus norm/activation/pool/add/other).")
    if not ok:
        print("error: totals differ from the published figures by more than %d%%"
              % (TOLERANCE * 100), file=sys.stderr)
        return 1
    if not args.check:
        text = to_json(nets)
        json.loads(text)  # must parse
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote %s" % os.path.normpath(args.output))
    return 0


if __name__ == "__main__":
    sys.exit(main())
