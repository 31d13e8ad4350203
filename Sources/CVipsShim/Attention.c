#include "CVipsShim.h"
#include "VipsCalls.h"
#include <math.h>

/* Everything here works on a coarse grid of cell colours read from an image in memory, in plain C:
   libvips' own smartcrop builds some twenty operations to score 32×32 cells, which costs more
   than the rest of a small image's processing together. */

/* The mean colour of each cell of a cols×rows grid laid over an 8-bit RGB(A) image, alpha
   composited over white, as 0–255 floats (three per cell, row by row). */
static int cell_means(VipsImage *in, int cols, int rows, float *rgb) {
    VipsImage *memory = vips_image_copy_memory(in);
    if (!memory) return -1;
    int width = memory->Xsize, height = memory->Ysize, bands = memory->Bands;
    if (memory->BandFmt != VIPS_FORMAT_UCHAR || bands < 3) {
        g_object_unref(memory);
        vips_error("gramgen", "cell colours need an 8-bit RGB image");
        return -1;
    }
    int *column = g_new(int, width);
    for (int x = 0; x < width; x++) column[x] = (int) ((gint64) x * cols / width);
    double *sums = g_new0(double, (size_t) cols * rows * 4); /* red, green, blue, pixels */
    for (int y = 0; y < height; y++) {
        double *row = sums + (size_t) ((gint64) y * rows / height) * cols * 4;
        const unsigned char *p = (const unsigned char *) VIPS_IMAGE_ADDR(memory, 0, y);
        for (int x = 0; x < width; x++, p += bands) {
            double *cell = row + (size_t) column[x] * 4;
            if (bands >= 4 && p[3] < 255) {
                double alpha = p[3] / 255.0, white = 255.0 * (1 - alpha);
                cell[0] += p[0] * alpha + white;
                cell[1] += p[1] * alpha + white;
                cell[2] += p[2] * alpha + white;
            } else {
                cell[0] += p[0];
                cell[1] += p[1];
                cell[2] += p[2];
            }
            cell[3] += 1;
        }
    }
    for (int i = 0; i < cols * rows; i++) {
        double count = VIPS_MAX(1.0, sums[i * 4 + 3]);
        for (int c = 0; c < 3; c++) rgb[i * 3 + c] = (float) (sums[i * 4 + c] / count);
    }
    g_free(sums);
    g_free(column);
    g_object_unref(memory);
    return 0;
}

VipsImage *gg_cell_image(VipsImage *in, int cols, int rows) {
    if (cols < 1 || rows < 1 || cols > in->Xsize || rows > in->Ysize) {
        vips_error("gramgen", "bad grid size");
        return NULL;
    }
    size_t count = (size_t) cols * rows * 3;
    float *rgb = g_new(float, count);
    VipsImage *out = NULL;
    if (cell_means(in, cols, rows, rgb) == 0) {
        unsigned char *bytes = g_new(unsigned char, count);
        for (size_t i = 0; i < count; i++) bytes[i] = (unsigned char) VIPS_CLIP(0, lrintf(rgb[i]), 255);
        out = vips_image_new_from_memory_copy(bytes, count, cols, rows, 3, VIPS_FORMAT_UCHAR);
        if (out) out->Type = VIPS_INTERPRETATION_sRGB;
        g_free(bytes);
    }
    g_free(rgb);
    return out;
}

/* CIE L*a*b* (D65) of an sRGB colour given as 0–255 floats. */
static void srgb_to_lab(const float *rgb, float *l, float *a, float *b) {
    double linear[3];
    for (int i = 0; i < 3; i++) {
        double c = rgb[i] / 255.0;
        linear[i] = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
    }
    double x = (0.4124 * linear[0] + 0.3576 * linear[1] + 0.1805 * linear[2]) / 0.95047;
    double y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
    double z = (0.0193 * linear[0] + 0.1192 * linear[1] + 0.9505 * linear[2]) / 1.08883;
    double f[3] = {x, y, z};
    for (int i = 0; i < 3; i++) f[i] = f[i] > 0.008856 ? cbrt(f[i]) : 7.787 * f[i] + 16.0 / 116.0;
    *l = (float) (116 * f[1] - 16);
    *a = (float) (500 * (f[0] - f[1]));
    *b = (float) (200 * (f[1] - f[2]));
}

/* One pass of a normalised Gaussian along rows (step 1) or columns (step cols), edges clamped. */
static void blur_pass(const float *in, float *out, int cols, int rows, int along_rows, const float *weights, int radius) {
    int length = along_rows ? cols : rows, lines = along_rows ? rows : cols;
    for (int line = 0; line < lines; line++) {
        for (int i = 0; i < length; i++) {
            float total = 0;
            for (int k = -radius; k <= radius; k++) {
                int j = VIPS_CLIP(0, i + k, length - 1);
                int index = along_rows ? line * cols + j : j * cols + line;
                total += weights[k + radius] * in[index];
            }
            out[along_rows ? line * cols + i : i * cols + line] = total;
        }
    }
}

int gg_attention(VipsImage *in, int edge, int *attention_x, int *attention_y) {
    int width = in->Xsize, height = in->Ysize;
    int cols = VIPS_MIN(32, width), rows = VIPS_MIN(32, height), cells = cols * rows;
    float *rgb = g_new(float, (size_t) cells * 3);
    if (cell_means(in, cols, rows, rgb)) {
        g_free(rgb);
        return -1;
    }
    float *lightness = g_new(float, cells), *score = g_new(float, cells), *blurred = g_new(float, cells);
    /* Skin tones (a* 3–22, b* 4–31, not dark) and strong colour (chroma over 60) score 255 each. */
    for (int i = 0; i < cells; i++) {
        float l, a, b;
        srgb_to_lab(rgb + i * 3, &l, &a, &b);
        lightness[i] = l;
        int skin = a >= 3 && a <= 22 && b >= 4 && b <= 31 && l >= 15;
        score[i] = (skin ? 255.0f : 0.0f) + (hypotf(a, b) > 60 ? 255.0f : 0.0f);
    }
    /* Plus edges: Sobel on lightness, |gx| + |gy|. */
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < cols; x++) {
#define L(dx, dy) lightness[VIPS_CLIP(0, y + (dy), rows - 1) * cols + VIPS_CLIP(0, x + (dx), cols - 1)]
            float gx = L(1, -1) + 2 * L(1, 0) + L(1, 1) - L(-1, -1) - 2 * L(-1, 0) - L(-1, 1);
            float gy = L(-1, 1) + 2 * L(0, 1) + L(1, 1) - L(-1, -1) - 2 * L(0, -1) - L(1, -1);
#undef L
            score[y * cols + x] += fabsf(gx) + fabsf(gy);
        }
    }
    /* Blurred over about the crop's extent, so the best crop, not the single busiest cell, wins. */
    double sigma = VIPS_MAX(0.5, hypot(edge * (double) cols / width, edge * (double) rows / height) / 10);
    int radius = VIPS_MIN(64, (int) ceil(3 * sigma));
    float *weights = g_new(float, 2 * radius + 1);
    float sum = 0;
    for (int k = -radius; k <= radius; k++) sum += weights[k + radius] = (float) exp(-(k * k) / (2 * sigma * sigma));
    for (int k = 0; k <= 2 * radius; k++) weights[k] /= sum;
    blur_pass(score, blurred, cols, rows, 1, weights, radius);
    blur_pass(blurred, score, cols, rows, 0, weights, radius);
    /* The best cell; of equal ones (a flat picture), the one nearest the middle. */
    int best = 0;
    double best_distance = INFINITY;
    for (int i = 0; i < cells; i++) {
        double dx = (i % cols) - (cols - 1) / 2.0, dy = (i / cols) - (rows - 1) / 2.0, distance = dx * dx + dy * dy;
        if (score[i] > score[best] + 1e-3f || (fabsf(score[i] - score[best]) <= 1e-3f && distance < best_distance)) {
            best = i;
            best_distance = distance;
        }
    }
    *attention_x = (int) (((best % cols) + 0.5) * width / cols);
    *attention_y = (int) (((best / cols) + 0.5) * height / rows);
    g_free(weights);
    g_free(blurred);
    g_free(score);
    g_free(lightness);
    g_free(rgb);
    return 0;
}
